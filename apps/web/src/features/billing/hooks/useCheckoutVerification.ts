import { useQueryClient } from '@tanstack/react-query';
import { useEffect, useRef, useState } from 'react';
import type { SubscriptionDto } from '@plink/contracts';
import { checkSubscriptionStatus, verifyCheckout } from '../api/billing.api';
import { subscriptionQuery, useRefreshPlan } from './useSubscription';

export type VerificationState = 'processing' | 'succeeded' | 'failed';

/**
 * Back from the payment page with `session_id`, the session is verified, then the subscription
 * status checked; success only when it reports an active subscription (then the user is refetched: Pro,
 * and the plan read, so the screen can say whether a trial started and when it ends).
 */
export function useCheckoutVerification(sessionId: string | null): { state: VerificationState; subscription?: SubscriptionDto } {
  const [state, setState] = useState<VerificationState>(sessionId ? 'processing' : 'failed');
  const [subscription, setSubscription] = useState<SubscriptionDto>();
  const queryClient = useQueryClient();
  const refreshPlan = useRefreshPlan();
  const started = useRef(false);

  useEffect(() => {
    if (!sessionId || started.current) return;
    started.current = true;
    void (async () => {
      try {
        await verifyCheckout(sessionId);
        const { hasActiveSubscription } = await checkSubscriptionStatus();
        if (!hasActiveSubscription) return setState('failed');
        await refreshPlan();
        // The plan is only a detail of the welcome: without it the screen still says Pro is on.
        setSubscription(await queryClient.fetchQuery(subscriptionQuery).catch(() => undefined));
        setState('succeeded');
      } catch (error) {
        console.error('Payment verification failed', error);
        setState('failed');
      }
    })();
  }, [sessionId, refreshPlan, queryClient]);

  return { state, subscription };
}
