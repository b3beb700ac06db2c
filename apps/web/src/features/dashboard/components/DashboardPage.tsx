import { Button, Card, Container, Group, Stack, Text, Title } from '@mantine/core';
import { Link } from 'react-router-dom';
import { useSignedInUser } from '../../auth';
import { useEmailVerifiedToast } from '../hooks/useEmailVerifiedToast';
import { UpgradePanel } from './UpgradePanel';

export function DashboardPage() {
  const user = useSignedInUser();
  useEmailVerifiedToast();

  return (
    <Container size="lg" py="xl">
      <Stack gap="lg">
        <Group justify="space-between" align="flex-end">
          <div>
            <Title order={1} fz="h2">
              Dashboard
            </Title>
            <Text c="dimmed">Welcome, {user.username}.</Text>
          </div>
          <Button component={Link} to="/editor/new">
            Create New
          </Button>
        </Group>
        {!user.isPremium && <UpgradePanel />}
        <Card withBorder radius="md" padding="xl">
          <Text c="dimmed" ta="center">
            Your pages, with their views and leads, will appear here.
          </Text>
        </Card>
      </Stack>
    </Container>
  );
}
