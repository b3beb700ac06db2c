import { Alert, Button, Group, Stack, Text } from '@mantine/core';
import { Link } from 'react-router-dom';

/** "12 December 2026": the day the leads go (in the browser's time zone). */
const day = (date: Date) => date.toLocaleDateString('en-GB', { day: 'numeric', month: 'long', year: 'numeric' });

/**
 * After a downgrade, the leads (e-mail addresses) of paused pages are removed 30 days on. Says
 * when, how to keep them (export, or upgrade).
 */
export function LeadRemovalBanner({ removalAt }: { removalAt: Date }) {
  return (
    <Alert color="orange" radius="md" title="Leads of your paused pages will be removed" role="alert">
      <Group justify="space-between" align="center" gap="md">
        <Stack gap={4} maw={620}>
          <Text size="sm">
            The e-mail addresses collected by your paused pages will be removed on <strong>{day(removalAt)}</strong>.
          </Text>
          <Text size="sm">
            Export them first with &apos;Download Leads&apos; on each paused page, or upgrade to Pro to keep them and bring
            every page back online.
          </Text>
        </Stack>
        <Button component={Link} to="/checkout?plan=pro" color="orange">
          Upgrade to Pro
        </Button>
      </Group>
    </Alert>
  );
}
