import { Alert, Badge, Button, Card, Group, Loader, Stack, Text, Title } from '@mantine/core';
import { Navigate, useLocation } from 'react-router-dom';
import { CardPageLayout } from '../../../components/CardPageLayout';
import { PlanFeatureList } from '../../../components/PlanFeatureList';
import { browserLocation } from '../../../lib/browser-location';
import { PRO_CHECKOUT_FEATURES, TRIAL_DAYS, TRIAL_USED_TEXT } from '../../../lib/plans';
import { type CheckoutState, useCheckoutSession } from '../hooks/useCheckoutSession';
import { useSubscription } from '../hooks/useSubscription';

/** `trialAvailable` is undefined until the plan is known: neither the trial nor its absence is said before. */
function ProPlanCard({ trialAvailable }: { trialAvailable: boolean | undefined }) {
  return (
    <Card withBorder radius="md" padding="lg">
      <Stack gap="sm">
        <Group justify="space-between">
          <Title order={2} fz="h4" lh="h3">
            Pro
          </Title>
          {trialAvailable && <Badge>{TRIAL_DAYS}-day free trial</Badge>}
        </Group>
        <Group gap={6} align="baseline">
          <Text fz={32} fw={700} lh={1}>
            $10
          </Text>
          <Text c="dimmed">/month, cancel anytime</Text>
        </Group>
        {trialAvailable === true && (
          <Text size="sm">Start with a {TRIAL_DAYS}-day free trial. No credit card required for the trial.</Text>
        )}
        {trialAvailable === false && <Text size="sm">{TRIAL_USED_TEXT}</Text>}
        <PlanFeatureList features={PRO_CHECKOUT_FEATURES} />
      </Stack>
    </Card>
  );
}

function CheckoutProgress({ state }: { state: CheckoutState }) {
  if (state.step === 'failed') {
    return (
      <Stack gap="sm">
        <Alert color="red" variant="light" role="alert">
          {state.message}
        </Alert>
        <Button onClick={() => browserLocation.reload()} fullWidth>
          Try Again
        </Button>
      </Stack>
    );
  }
  if (state.step === 'redirecting') {
    const { url } = state;
    return (
      <Stack gap="sm" align="center">
        <Text role="status">Redirecting to secure checkout...</Text>
        <Button onClick={() => browserLocation.assign(url)} fullWidth>
          Continue to Checkout
        </Button>
      </Stack>
    );
  }
  return (
    <Group justify="center" gap="sm" role="status">
      <Loader size="sm" />
      <Text>Preparing your checkout...</Text>
    </Group>
  );
}

function CheckoutScreen() {
  const state = useCheckoutSession();
  const subscription = useSubscription();
  return (
    <CardPageLayout
      title="Upgrade to Pro"
      description="Unlock everything Plink offers."
      back={{ to: '/dashboard', label: 'Back to Dashboard' }}
    >
      <ProPlanCard trialAvailable={subscription.data?.trialAvailable} />
      <CheckoutProgress state={state} />
    </CardPageLayout>
  );
}

/** /checkout: the Pro plan, and the way to Stripe Checkout, started at once. */
export function CheckoutPage() {
  // Reached from an upgrade button (/checkout?plan=pro); the bare address leads back to the dashboard.
  const hasQuery = useLocation().search.length > 1;
  return hasQuery ? <CheckoutScreen /> : <Navigate to="/dashboard" replace />;
}
