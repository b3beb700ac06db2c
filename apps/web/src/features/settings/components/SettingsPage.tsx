import { Container, Stack, Tabs, Text, Title } from '@mantine/core';
import { useSearchParams } from 'react-router-dom';
import { ApiTokensCard, AutomationsCard } from '../../automation';
import { DeleteAccountCard, ExportDataCard } from '../../account-data';
import { SubscriptionPanel } from '../../billing';
import { ChangeEmailForm } from './ChangeEmailForm';
import { ChangePasswordForm } from './ChangePasswordForm';
import { ChangeUsernameForm } from './ChangeUsernameForm';
import { SupportCard } from './SupportCard';
import { TrashCard } from '../../trash';

const TABS = ['account', 'subscription'] as const;
type SettingsTab = (typeof TABS)[number];

const isTab = (value: string | null): value is SettingsTab => TABS.some((tab) => tab === value);

export function SettingsPage() {
  // ?tab=subscription opens the Subscription tab (the billing e-mails link there).
  const [searchParams, setSearchParams] = useSearchParams();
  const requested = searchParams.get('tab');
  const tab: SettingsTab = isTab(requested) ? requested : 'account';
  const selectTab = (value: string | null) => {
    if (!isTab(value)) return;
    const next = new URLSearchParams(searchParams);
    next.set('tab', value);
    setSearchParams(next, { replace: true });
  };

  return (
    <Container size="sm" py="xl">
      <Title order={1} fz="h2">
        Settings
      </Title>
      <Text c="dimmed" mb="lg">
        Manage your account and subscription.
      </Text>
      <Tabs value={tab} onChange={selectTab}>
        <Tabs.List mb="lg">
          <Tabs.Tab value="account">Account</Tabs.Tab>
          <Tabs.Tab value="subscription">Subscription</Tabs.Tab>
        </Tabs.List>
        <Tabs.Panel value="account">
          <Stack>
            <ChangeEmailForm />
            <ChangeUsernameForm />
            <ChangePasswordForm />
            <ApiTokensCard />
            <AutomationsCard />
            <TrashCard />
            <SupportCard />
            <ExportDataCard />
            <DeleteAccountCard />
          </Stack>
        </Tabs.Panel>
        <Tabs.Panel value="subscription">
          <SubscriptionPanel />
        </Tabs.Panel>
      </Tabs>
    </Container>
  );
}
