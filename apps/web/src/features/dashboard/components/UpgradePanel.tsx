import { Button, Card, Group, Stack, Text, Title } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { Link } from 'react-router-dom';
import { TRIAL_DAYS, TRIAL_USED_TEXT } from '../../../lib/plans';
import { subscriptionQuery } from '../../billing';

/**
 * The dashboard's offer to a Free user. The trial is promised only once the server says this user can still
 * have it (it is given once per person, so a second account of theirs gets the paid wording).
 */
export function UpgradePanel() {
  const subscription = useQuery({ ...subscriptionQuery, staleTime: 60 * 1000, retry: 1 });
  const trialAvailable = subscription.data?.trialAvailable;
  return (
    <Card radius="md" padding="lg" bg="violet.0" withBorder>
      <Group justify="space-between" align="center" gap="md">
        <Stack gap={4} maw={520}>
          <Title order={2} fz="h4">
            Upgrade to Pro
          </Title>
          <Text size="sm" c="dimmed" data-testid="upgrade-offer">
            Unlimited pages, branding removal, tracking scripts and webhooks for $10/month.
            {trialAvailable === true && ` Try it free for ${TRIAL_DAYS} days, no credit card needed.`}
            {trialAvailable === false && ` ${TRIAL_USED_TEXT}`}
          </Text>
        </Stack>
        <Button component={Link} to="/checkout?plan=pro">
          Upgrade Now
        </Button>
      </Group>
    </Card>
  );
}
