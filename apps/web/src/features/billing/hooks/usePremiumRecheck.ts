import { useQueryClient } from '@tanstack/react-query';
import { useEffect, useRef } from 'react';
import { toast, TOAST_DURATION } from '../../../lib/toast';
import { currentUserQuery, useSignedInUser } from '../../auth';
import { checkSubscriptionStatus } from '../api/billing.api';
import { useRefreshPlan } from './useSubscription';

export const INACTIVE_SUBSCRIPTION_TEXT =
  'Your subscription appears to be inactive. If you recently subscribed, please check your payment method or contact support.';

/**
 * The dashboard's premium re-check: a Pro user's subscription is checked once per visit; when the server
 * corrected it to Free while this browser still shows Pro, the user is refetched and told (8 s). Errors of the
 * check itself are only logged.
 */
export function usePremiumRecheck() {
  const { isPremium } = useSignedInUser();
  const queryClient = useQueryClient();
  const refreshPlan = useRefreshPlan();
  const checked = useRef(false);

  useEffect(() => {
    // Once: StrictMode runs mount effects twice.
    if (!isPremium || checked.current) return;
    checked.current = true;
    checkSubscriptionStatus()
      .then((status) => {
        const shownAsPremium = queryClient.getQueryData(currentUserQuery.queryKey)?.isPremium === true;
        if (!status.updated || status.isPremium || !shownAsPremium) return;
        void refreshPlan();
        toast({
          title: 'Subscription Status',
          description: INACTIVE_SUBSCRIPTION_TEXT,
          variant: 'destructive',
          duration: TOAST_DURATION.inactiveSubscription,
        });
      })
      .catch((error: unknown) => console.error('Subscription status check failed', error));
  }, [isPremium, queryClient, refreshPlan]);
}
