import { Alert, Badge, Button, Card, Center, Group, Loader, Stack, Text, Title } from '@mantine/core';
import { BillingMessages, type SubscriptionDto } from '@plink/contracts';
import { useState } from 'react';
import { Link } from 'react-router-dom';
import { PlanFeatureList } from '../../../components/PlanFeatureList';
import { FREE_PLAN, PRO_PLAN, TRIAL_DAYS, TRIAL_USED_TEXT, UPGRADE_PATH } from '../../../lib/plans';
import { useSubscription } from '../hooks/useSubscription';
import {
  useBillingPortal,
  useCancelSubscription,
  useResetSubscriptionStatus,
  useResumeSubscription,
} from '../hooks/useSubscriptionActions';
import { CancelSubscriptionDialog } from './CancelSubscriptionDialog';
import { canCancel, canResume, canUpgrade, planEndOf, planStatusText } from '../model/subscription-summary';

function UpgradeOffer({ subscription }: { subscription: SubscriptionDto }) {
  if (!subscription.paymentsConfigured) {
    return (
      <Alert variant="light" color="gray" title="Upgrading is not available">
        {BillingMessages.notConfigured}
      </Alert>
    );
  }
  return (
    <Stack gap={6} align="flex-start">
      <Text size="sm">
        {subscription.trialAvailable
          ? `Try Pro free for ${TRIAL_DAYS} days. No credit card required for the trial.`
          : TRIAL_USED_TEXT}
      </Text>
      <Button component={Link} to={UPGRADE_PATH}>
        Upgrade to Pro
      </Button>
    </Stack>
  );
}

function PlanActions({ subscription }: { subscription: SubscriptionDto }) {
  const cancel = useCancelSubscription();
  const resume = useResumeSubscription();
  const portal = useBillingPortal();
  const [confirming, setConfirming] = useState(false);

  const confirmCancel = () => cancel.mutate(undefined, { onSettled: () => setConfirming(false) });

  return (
    <Stack gap="md">
      {subscription.status === 'past_due' && (
        <Alert variant="light" color="red" title="Your last payment failed">
          {subscription.canManageBilling
            ? 'Update your card with Manage billing to keep your Pro plan.'
            : 'Contact support to keep your Pro plan.'}
        </Alert>
      )}
      {subscription.isPremium && subscription.source === 'operator' && (
        <Text size="sm" c="dimmed">
          {BillingMessages.grantedByOperator}
        </Text>
      )}
      {canUpgrade(subscription) && <UpgradeOffer subscription={subscription} />}
      <Group gap="sm">
        {subscription.canManageBilling && (
          <Button variant="default" onClick={() => portal.mutate()} loading={portal.isPending}>
            Manage billing
          </Button>
        )}
        {canResume(subscription) && (
          <Button onClick={() => resume.mutate()} loading={resume.isPending}>
            Resume subscription
          </Button>
        )}
        {canCancel(subscription) && (
          <Button color="red" variant="light" onClick={() => setConfirming(true)}>
            Cancel Subscription
          </Button>
        )}
      </Group>
      <CancelSubscriptionDialog
        opened={confirming}
        pending={cancel.isPending}
        endsAt={planEndOf(subscription)}
        onConfirm={confirmCancel}
        onKeep={() => setConfirming(false)}
      />
    </Stack>
  );
}

function ResetStatusCard() {
  const reset = useResetSubscriptionStatus();
  return (
    <Card withBorder radius="md" padding="lg">
      <Title order={2} fz="h4" lh="h3">
        Subscription status
      </Title>
      <Text c="dimmed" size="sm" mb="md">
        Paid or cancelled recently and your plan looks wrong? Reset its status to check it again.
      </Text>
      <Button variant="default" onClick={() => reset.mutate()} loading={reset.isPending} style={{ alignSelf: 'flex-start' }}>
        Reset subscription status
      </Button>
    </Card>
  );
}

/** Settings → Subscription: the plan and its state, upgrade, billing, cancel and resume, reset. */
export function SubscriptionPanel() {
  const subscription = useSubscription();

  return (
    <Stack>
      <Card withBorder radius="md" padding="lg">
        {subscription.isPending ? (
          <Center py="lg" role="status" aria-label="Loading your subscription">
            <Loader />
          </Center>
        ) : subscription.isError ? (
          <Text c="red" role="alert">
            Your subscription could not be loaded. Please try again later.
          </Text>
        ) : (
          <PlanOverview subscription={subscription.data} />
        )}
      </Card>
      <ResetStatusCard />
    </Stack>
  );
}

function PlanOverview({ subscription }: { subscription: SubscriptionDto }) {
  const plan = subscription.isPremium ? PRO_PLAN : FREE_PLAN;
  return (
    <Stack gap="md">
      <div>
        <Group justify="space-between" mb={4}>
          <Title order={2} fz="h4" lh="h3">
            Current plan
          </Title>
          <Badge size="lg" color={subscription.isPremium ? 'violet' : 'gray'}>
            {plan.name}
          </Badge>
        </Group>
        <Text fw={500} data-testid="plan-status">
          {planStatusText(subscription)}
        </Text>
        <Text c="dimmed" size="sm">
          {plan.price} {plan.period}
        </Text>
      </div>
      <PlanFeatureList features={plan.features} />
      <PlanActions subscription={subscription} />
    </Stack>
  );
}
