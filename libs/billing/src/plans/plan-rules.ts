import type { PlanStatus } from '@plink/contracts';
import type { PlanSource } from '../accounts/billing-account.entity';

/** What decides a user's plan: the subscription's (or grant's) state. */
export interface PlanState {
  status: PlanStatus;
  source?: PlanSource | null;
  operatorExpiresAt?: Date | null;
}

/**
 * Pro or not (the one rule, for Stripe and the operator alike): a subscription that is active or in its
 * trial, or an operator grant that has not run out. past_due keeps nothing: Stripe retries the payment and
 * says 'active' again once it succeeds.
 */
export function decidePremium(state: PlanState, now: Date): boolean {
  if (state.status !== 'active' && state.status !== 'trialing') return false;
  if (state.source === 'operator' && state.operatorExpiresAt) return state.operatorExpiresAt.getTime() > now.getTime();
  return true;
}

/** When the plan ends by itself, as identity shows it: the grant's expiry, the trial's or the period's end. */
export function periodEndOf(state: PlanState & { trialEnd?: Date | null; currentPeriodEnd?: Date | null }): Date | null {
  if (state.source === 'operator') return state.operatorExpiresAt ?? null;
  if (state.status === 'trialing') return state.trialEnd ?? state.currentPeriodEnd ?? null;
  return state.currentPeriodEnd ?? null;
}
