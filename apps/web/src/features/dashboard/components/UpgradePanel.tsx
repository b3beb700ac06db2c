import { Button, Card, Group, Stack, Text, Title } from '@mantine/core';
import { Link } from 'react-router-dom';
import { TRIAL_DAYS } from '../../../lib/plans';

export function UpgradePanel() {
  return (
    <Card radius="md" padding="lg" bg="violet.0" withBorder>
      <Group justify="space-between" align="center" gap="md">
        <Stack gap={4} maw={520}>
          <Title order={2} fz="h4">
            Upgrade to Pro
          </Title>
          <Text size="sm" c="dimmed">
            Unlimited pages, branding removal, tracking scripts and webhooks for $10/month. Try it free for{' '}
            {TRIAL_DAYS} days, no credit card needed.
          </Text>
        </Stack>
        <Button component={Link} to="/checkout?plan=pro">
          Upgrade Now
        </Button>
      </Group>
    </Card>
  );
}
