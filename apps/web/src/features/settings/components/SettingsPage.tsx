import { Container, Stack, Tabs, Text, Title } from '@mantine/core';
import { ChangePasswordForm } from './ChangePasswordForm';
import { SubscriptionPanel } from './SubscriptionPanel';
import { SupportCard } from './SupportCard';

export function SettingsPage() {
  return (
    <Container size="sm" py="xl">
      <Title order={1} fz="h2">
        Settings
      </Title>
      <Text c="dimmed" mb="lg">
        Manage your account and subscription.
      </Text>
      <Tabs defaultValue="account">
        <Tabs.List mb="lg">
          <Tabs.Tab value="account">Account</Tabs.Tab>
          <Tabs.Tab value="subscription">Subscription</Tabs.Tab>
        </Tabs.List>
        <Tabs.Panel value="account">
          <Stack>
            <ChangePasswordForm />
            <SupportCard />
          </Stack>
        </Tabs.Panel>
        <Tabs.Panel value="subscription">
          <SubscriptionPanel />
        </Tabs.Panel>
      </Tabs>
    </Container>
  );
}
