import { useQueryClient } from '@tanstack/react-query';
import { useEffect, useRef, useState } from 'react';
import { useNavigate } from 'react-router-dom';
import { browserLocation } from '../../../lib/browser-location';
import { currentUserQuery, useSignedInUser } from '../../auth';
import { resetSubscriptionStatus } from '../api/billing.api';
import { createCheckoutSession } from '../api/checkout-session';

export type CheckoutState =
  | { step: 'preparing' }
  | { step: 'redirecting'; url: string }
  | { step: 'failed'; message: string };

/**
 * The upgrade, as /checkout starts it: a user shown as Pro first has the server reset the plan (still
 * Pro → /dashboard); then a Checkout Session is created and the browser sent to it.
 */
export function useCheckoutSession(): CheckoutState {
  const { isPremium } = useSignedInUser();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const [state, setState] = useState<CheckoutState>({ step: 'preparing' });
  const started = useRef(false);

  useEffect(() => {
    // Once: StrictMode runs mount effects twice, and each attempt is a session at the provider.
    if (started.current) return;
    started.current = true;
    const toDashboard = () => navigate('/dashboard', { replace: true });

    void (async () => {
      if (isPremium) {
        const status = await resetSubscriptionStatus().catch(() => null);
        if (!status || status.isPremium) return toDashboard();
        await queryClient.invalidateQueries({ queryKey: currentUserQuery.queryKey });
      }
      const outcome = await createCheckoutSession();
      if (outcome.kind === 'already-premium') return toDashboard();
      if (outcome.kind === 'error') return setState({ step: 'failed', message: outcome.message });
      setState({ step: 'redirecting', url: outcome.url });
      browserLocation.assign(outcome.url);
    })();
  }, [isPremium, navigate, queryClient]);

  return state;
}
