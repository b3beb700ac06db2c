import { useEffect, useRef, useState } from 'react';
import { checkSubscriptionStatus, verifyCheckout } from '../api/billing.api';
import { useRefreshPlan } from './useSubscription';

export type VerificationState = 'processing' | 'succeeded' | 'failed';

/**
 * Back from the payment page with `session_id`, the session is verified, then the subscription
 * status checked; success only when it reports an active subscription (then the user is refetched: Pro).
 */
export function useCheckoutVerification(sessionId: string | null): VerificationState {
  const [state, setState] = useState<VerificationState>(sessionId ? 'processing' : 'failed');
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
        setState('succeeded');
      } catch (error) {
        console.error('Payment verification failed', error);
        setState('failed');
      }
    })();
  }, [sessionId, refreshPlan]);

  return state;
}
