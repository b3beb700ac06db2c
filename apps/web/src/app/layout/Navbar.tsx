import { Anchor, Box, Button, Container, Group, Menu } from '@mantine/core';
import type { UserDto } from '@plink/contracts';
import { Link } from 'react-router-dom';
import { IconChevronDown } from '../../components/icons';
import { useCurrentUser, useLogout } from '../../features/auth';
import { PRODUCT_NAME } from '../../lib/constants';
import { PRODUCT_ANCHORS } from '../../lib/navigation';

function SignedOutNav() {
  return (
    <>
      <Group gap="lg" visibleFrom="sm">
        {PRODUCT_ANCHORS.map(({ label, href }) => (
          <Anchor key={href} component={Link} to={href} c="dimmed" size="sm" fw={500}>
            {label}
          </Anchor>
        ))}
      </Group>
      <Button component={Link} to="/auth" size="sm">
        Log in
      </Button>
    </>
  );
}

function SignedInNav({ user }: { user: UserDto }) {
  const logout = useLogout();
  return (
    <Group gap="sm">
      <Button component={Link} to="/dashboard" variant="subtle" size="sm">
        Dashboard
      </Button>
      <Menu position="bottom-end" width={200} shadow="md">
        <Menu.Target>
          <Button variant="default" size="sm" rightSection={<IconChevronDown size={14} />}>
            {user.username}
          </Button>
        </Menu.Target>
        <Menu.Dropdown>
          <Menu.Label>My Account</Menu.Label>
          <Menu.Item component={Link} to="/editor/new">
            New page
          </Menu.Item>
          <Menu.Item component={Link} to="/settings">
            Settings
          </Menu.Item>
          <Menu.Divider />
          <Menu.Item color="red" onClick={() => logout.mutate()} disabled={logout.isPending}>
            Logout
          </Menu.Item>
        </Menu.Dropdown>
      </Menu>
    </Group>
  );
}

export function Navbar() {
  const { data: user, isPending } = useCurrentUser();
  return (
    <Box component="header" h={64} style={{ borderBottom: '1px solid var(--mantine-color-default-border)' }}>
      <Container size="lg" h="100%">
        <Group h="100%" justify="space-between">
          <Anchor component={Link} to={user ? '/dashboard' : '/'} underline="never" fw={800} fz="xl">
            {PRODUCT_NAME}
          </Anchor>
          <Group component="nav" aria-label="Main" gap="lg">
            {isPending ? null : user ? <SignedInNav user={user} /> : <SignedOutNav />}
          </Group>
        </Group>
      </Container>
    </Box>
  );
}
