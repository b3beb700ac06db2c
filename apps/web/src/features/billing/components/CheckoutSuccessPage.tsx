import { Anchor, Button, Center, Loader, Text } from '@mantine/core';
import { Link, useSearchParams } from 'react-router-dom';
import { CardPageLayout } from '../../../components/CardPageLayout';
import { StatusIcon } from '../../../components/StatusIcon';
import { SUPPORT_EMAIL, SUPPORT_MAILTO } from '../../../lib/constants';
import { useCheckoutVerification } from '../hooks/useCheckoutVerification';
import { formatDay } from '../model/subscription-summary';

const DashboardButton = () => (
  <Button component={Link} to="/dashboard" fullWidth>
    Go to Dashboard
  </Button>
);

/** /checkout/success?session_id=…: where Stripe Checkout sends the browser back. */
export function CheckoutSuccessPage() {
  const sessionId = useSearchParams()[0].get('session_id');
  const { state, subscription } = useCheckoutVerification(sessionId);

  if (state === 'processing') {
    return (
      <CardPageLayout title="Processing Your Payment" description="Please wait while we confirm your subscription...">
        <Center role="status">
          <Loader />
        </Center>
      </CardPageLayout>
    );
  }
  if (state === 'succeeded') {
    const trialEnd = subscription?.status === 'trialing' ? subscription.trialEnd : null;
    return (
      <CardPageLayout
        icon={<StatusIcon kind="success" />}
        title="Welcome to Pro!"
        description={trialEnd ? 'Your free trial has started' : 'Your subscription has been activated'}
      >
        <Text size="sm" ta="center">
          Unlimited pages, branding removal, tracking scripts and webhooks are yours now.
        </Text>
        {trialEnd && (
          <Text size="sm" ta="center">
            Your trial ends on <strong>{formatDay(trialEnd)}</strong>. You will not be charged before then, and you
            can cancel any time in Settings.
          </Text>
        )}
        <DashboardButton />
      </CardPageLayout>
    );
  }
  return (
    <CardPageLayout icon={<StatusIcon kind="error" />} title="Something Went Wrong" description="We could not verify your payment">
      <Text size="sm" ta="center">
        There was an issue verifying your payment. Please contact support at{' '}
        <Anchor href={SUPPORT_MAILTO}>{SUPPORT_EMAIL}</Anchor>
      </Text>
      <DashboardButton />
    </CardPageLayout>
  );
}
