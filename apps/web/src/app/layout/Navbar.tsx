import { Anchor, Box, Burger, Button, Container, Group } from '@mantine/core';
import { useDisclosure } from '@mantine/hooks';
import type { UserDto } from '@plink/contracts';
import { Suspense, lazy, useState } from 'react';
import { Link } from 'react-router-dom';
import { DeferredMenu } from '../../components/DeferredFloating';
import { IconChevronDown } from '../../components/icons';
import { useCurrentUser, useLogout } from '../../features/auth';
import { PRODUCT_NAME } from '../../lib/constants';
import { PRODUCT_ANCHORS } from '../../lib/navigation';
import classes from './Navbar.module.css';

/** The drawer's code loads when it is first opened. */
const SectionsDrawer = lazy(() => import('./SectionsDrawer'));

/** On phones the home page sections move into a drawer behind a burger button. */
function SectionsMenu() {
  const [opened, { toggle, close }] = useDisclosure(false);
  const [used, setUsed] = useState(false);
  return (
    <>
      <Burger
        opened={opened}
        onClick={() => {
          setUsed(true);
          toggle();
        }}
        hiddenFrom="sm"
        size="sm"
        aria-label={opened ? 'Close menu' : 'Open menu'}
      />
      {used && (
        <Suspense fallback={null}>
          <SectionsDrawer opened={opened} onClose={close} />
        </Suspense>
      )}
    </>
  );
}

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
      <SectionsMenu />
    </>
  );
}

function SignedInNav({ user }: { user: UserDto }) {
  const logout = useLogout();
  return (
    <Group gap="xs" wrap="nowrap" miw={0}>
      <Button component={Link} to="/dashboard" variant="subtle" size="sm" className={classes.dashboard} style={{ flexShrink: 0 }}>
        Dashboard
      </Button>
      {/* The menu's code loads when its button is pointed at, focused or pressed. */}
      <DeferredMenu
        position="bottom-end"
        width={200}
        shadow="md"
        target={
          <Button variant="default" size="sm" rightSection={<IconChevronDown size={14} />} classNames={{ root: classes.account, label: classes.accountLabel }}>
            {user.username}
          </Button>
        }
        dropdown={(Menu) => (
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
        )}
      />
    </Group>
  );
}

export function Navbar() {
  const { data: user, isPending } = useCurrentUser();
  return (
    // Sticky: the navigation stays on top while a long page (the home page on a phone) scrolls.
    <Box
      component="header"
      h={64}
      pos="sticky"
      top={0}
      bg="var(--mantine-color-body)"
      style={{ zIndex: 100, borderBottom: '1px solid var(--mantine-color-default-border)' }}
    >
      <Container size="lg" h="100%">
        <Group h="100%" justify="space-between" wrap="nowrap" gap="sm">
          <Anchor component={Link} to={user ? '/dashboard' : '/'} underline="never" fw={800} fz="xl" style={{ flexShrink: 0 }}>
            {PRODUCT_NAME}
          </Anchor>
          <Group component="nav" aria-label="Main" gap="sm" wrap="nowrap" miw={0}>
            {isPending ? null : user ? <SignedInNav user={user} /> : <SignedOutNav />}
          </Group>
        </Group>
      </Container>
    </Box>
  );
}
