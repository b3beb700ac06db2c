import type { PlanStatus } from '@plink/contracts';
import type { PlanSource } from '../accounts/billing-account.entity';

/** What decides a user's plan: the subscription's (or grant's) state. */
export interface PlanState {
  status: PlanStatus;
  source?: PlanSource | null;
  operatorExpiresAt?: Date | null;
}

/** The statuses that keep Pro: see {@link decidePremium}. */
export const PRO_STATUSES: readonly PlanStatus[] = ['active', 'trialing', 'past_due'];

/**
 * Pro or not (the one rule, for Stripe and the operator alike): a subscription that is active, in its
 * trial, or past due, or an operator grant that has not run out. past_due keeps Pro while Stripe retries
 * the card (a failed renewal does not pause a paying creator's pages at once): it says 'active' again once
 * a retry succeeds, and ends the subscription ('canceled', or 'unpaid', stored as 'canceled') when its
 * retries run out. 'paused', 'canceled' and 'none' are not Pro.
 */
export function decidePremium(state: PlanState, now: Date): boolean {
  if (!PRO_STATUSES.includes(state.status)) return false;
  if (state.source === 'operator' && state.operatorExpiresAt) return state.operatorExpiresAt.getTime() > now.getTime();
  return true;
}

/** When the plan ends by itself, as identity shows it: the grant's expiry, the trial's or the period's end. */
export function periodEndOf(state: PlanState & { trialEnd?: Date | null; currentPeriodEnd?: Date | null }): Date | null {
  if (state.source === 'operator') return state.operatorExpiresAt ?? null;
  if (state.status === 'trialing') return state.trialEnd ?? state.currentPeriodEnd ?? null;
  return state.currentPeriodEnd ?? null;
}

/** Days after Pro ends before the leads of the pages it paused are removed (contact data is not kept longer). */
export const LEAD_REMOVAL_DAYS = 30;

/** When the leads of a downgraded user's paused pages go: LEAD_REMOVAL_DAYS after the downgrade; null while Pro. */
export function leadRemovalAtOf(state: { isPremium: boolean; downgradedAt?: Date | null }): Date | null {
  if (state.isPremium || !state.downgradedAt) return null;
  return new Date(state.downgradedAt.getTime() + LEAD_REMOVAL_DAYS * 24 * 60 * 60 * 1000);
}
