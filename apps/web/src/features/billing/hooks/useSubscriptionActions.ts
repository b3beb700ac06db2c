import { useMutation } from '@tanstack/react-query';
import { errorText } from '../../../lib/api-client';
import { browserLocation } from '../../../lib/browser-location';
import { toast } from '../../../lib/toast';
import { cancelSubscription, openBillingPortal, resetSubscriptionStatus, resumeSubscription } from '../api/billing.api';
import { formatDay } from '../model/subscription-summary';
import { useRefreshPlan } from './useSubscription';

/** Cancel at the end of the period (Pro stays until then): toast, then the user and the plan are refetched. */
export function useCancelSubscription() {
  const refreshPlan = useRefreshPlan();
  return useMutation({
    mutationFn: cancelSubscription,
    onSuccess: ({ endsAt }) =>
      toast({
        title: 'Subscription cancelled',
        description: endsAt
          ? `Your Pro plan stays active until ${formatDay(endsAt)}.`
          : 'Your Pro plan stays active until the end of the billing period.',
        variant: 'success',
      }),
    onError: (error) =>
      toast({
        title: 'Cancellation failed',
        description: errorText(error, 'Please try again later.'),
        variant: 'destructive',
      }),
    onSettled: refreshPlan,
  });
}

/** Takes a cancellation back while the subscription still runs. */
export function useResumeSubscription() {
  const refreshPlan = useRefreshPlan();
  return useMutation({
    mutationFn: resumeSubscription,
    onSuccess: ({ renewsAt }) =>
      toast({
        title: 'Subscription resumed',
        description: renewsAt ? `Your Pro plan renews on ${formatDay(renewsAt)}.` : 'Your Pro plan continues.',
        variant: 'success',
      }),
    onError: (error) =>
      toast({ title: 'Resume failed', description: errorText(error, 'Please try again later.'), variant: 'destructive' }),
    onSettled: refreshPlan,
  });
}

/** The reset-status action: the server re-reads the caller's plan from the payment provider. */
export function useResetSubscriptionStatus() {
  const refreshPlan = useRefreshPlan();
  return useMutation({
    mutationFn: resetSubscriptionStatus,
    onSuccess: ({ isPremium }) =>
      toast({
        title: 'Subscription status reset',
        description: isPremium ? 'Your Pro plan is active.' : 'Your account is on the Free plan.',
        variant: 'success',
      }),
    onError: (error) =>
      toast({ title: 'Reset failed', description: errorText(error, 'Please try again later.'), variant: 'destructive' }),
    onSettled: refreshPlan,
  });
}

/** 'Manage billing': a Billing Portal session (card, invoices), then the browser goes there. */
export function useBillingPortal() {
  return useMutation({
    mutationFn: openBillingPortal,
    onSuccess: ({ url }) => browserLocation.assign(url),
    onError: (error) =>
      toast({
        title: 'Could not open billing',
        description: errorText(error, 'Please try again later.'),
        variant: 'destructive',
      }),
  });
}
