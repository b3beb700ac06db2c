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
/** Days before the removal that the user is warned by e-mail (once). */
export const LEAD_REMOVAL_WARNING_DAYS = 7;
/** A warning sent later than this many days before the removal (the job was not running) moves the removal. */
const LATE_WARNING_DAYS = 6;

const DAY_MS = 24 * 60 * 60 * 1000;

/** What decides the removal of a downgraded user's paused pages' leads (billing.accounts). */
export interface LeadRemovalState {
  isPremium: boolean;
  /** When Pro last ended; null while Pro or never Pro. */
  downgradedAt?: Date | null;
  /** When the warning e-mail was recorded (once per downgrade). */
  leadRemovalWarnedAt?: Date | null;
  /** When the removal was recorded (once per downgrade). */
  leadsRemovedAt?: Date | null;
}

/**
 * When the leads of a downgraded user's paused pages go: LEAD_REMOVAL_DAYS after the downgrade. Never
 * without the warning's week of notice: a warning recorded late (the job was not running when it was due)
 * moves the removal to LEAD_REMOVAL_WARNING_DAYS after the warning. Null while Pro, or once removed.
 */
export function leadRemovalAtOf(state: LeadRemovalState): Date | null {
  if (state.isPremium || !state.downgradedAt || state.leadsRemovedAt) return null;
  const due = state.downgradedAt.getTime() + LEAD_REMOVAL_DAYS * DAY_MS;
  const warned = state.leadRemovalWarnedAt?.getTime();
  if (warned !== undefined && warned > due - LATE_WARNING_DAYS * DAY_MS) return new Date(warned + LEAD_REMOVAL_WARNING_DAYS * DAY_MS);
  return new Date(due);
}

/**
 * What the lead-removal job does for an account at `now`: warn (once, from LEAD_REMOVAL_WARNING_DAYS
 * before the removal), remove (once, when its date has come and the warning went out), or nothing.
 */
export function leadRemovalStep(state: LeadRemovalState, now: Date): 'warn' | 'remove' | null {
  const removalAt = leadRemovalAtOf(state);
  if (!removalAt) return null;
  if (!state.leadRemovalWarnedAt) return now.getTime() >= removalAt.getTime() - LEAD_REMOVAL_WARNING_DAYS * DAY_MS ? 'warn' : null;
  return now.getTime() >= removalAt.getTime() ? 'remove' : null;
}
