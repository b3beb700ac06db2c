import type Stripe from 'stripe';
import type { PlanStatus } from '@plink/contracts';
import type { PlanChange } from '../use-cases/apply-plan.service';

/**
 * Stripe's subscription statuses as Plink stores them (PLAN_STATUSES). `unpaid` (Stripe's retries ran out,
 * the subscription kept) and `incomplete_expired` end Pro: stored as `canceled`. `incomplete` (the first
 * payment is not made yet) is not Pro yet: `none`.
 */
export function planStatusOf(status: Stripe.Subscription.Status): PlanStatus {
  switch (status) {
    case 'trialing':
      return 'trialing';
    case 'active':
      return 'active';
    case 'past_due':
      return 'past_due';
    case 'paused':
      return 'paused';
    case 'canceled':
      return 'canceled';
    case 'unpaid':
    case 'incomplete_expired':
      return 'canceled';
    default:
      return 'none';
  }
}

/** Statuses in which the subscription still runs (the customer is subscribed, whether or not Pro). */
const RUNNING: ReadonlySet<string> = new Set(['trialing', 'active', 'past_due', 'unpaid', 'paused', 'incomplete']);

const toDate = (seconds: number | null | undefined): Date | null => (typeof seconds === 'number' ? new Date(seconds * 1000) : null);

/**
 * End of the paid period. Stripe keeps it on the subscription's items since its 2025 API versions (the
 * latest of them); a server that still sends the older top-level `current_period_end` is read too.
 */
export function currentPeriodEndOf(subscription: Stripe.Subscription): Date | null {
  const ends = (subscription.items?.data ?? []).map((item) => item.current_period_end).filter((end): end is number => typeof end === 'number');
  if (ends.length > 0) return toDate(Math.max(...ends));
  return toDate((subscription as { current_period_end?: number | null }).current_period_end);
}

/** The id of an expandable field (a string, or the expanded object). */
export function idOf(value: string | { id: string } | null | undefined): string | null {
  if (!value) return null;
  return typeof value === 'string' ? value : value.id;
}

/** A subscription that still runs (the customer is subscribed by it, whether or not Pro). */
export function isRunning(subscription: Stripe.Subscription): boolean {
  return RUNNING.has(subscription.status);
}

/** A subscription set to end (at its period's end or at a date). */
function isEnding(subscription: Stripe.Subscription): boolean {
  return subscription.cancel_at_period_end === true || (subscription.cancel_at !== null && subscription.cancel_at !== undefined);
}

/**
 * The subscription that says the customer's plan, among theirs: one still running, else the newest ended
 * one; null for a customer who never subscribed. Of several running (which should not happen), one that
 * renews comes before one set to end, so the plan does not say "cancelled" while another still charges;
 * then the newest.
 */
export function pickCurrentSubscription(subscriptions: readonly Stripe.Subscription[]): Stripe.Subscription | null {
  const newestFirst = [...subscriptions].sort((a, b) => b.created - a.created);
  const running = newestFirst.filter(isRunning);
  return running.find((s) => !isEnding(s)) ?? running[0] ?? newestFirst[0] ?? null;
}

/**
 * The plan change a subscription's current state makes (or, with none, the end of any subscription).
 * `trialUsed` once the subscription has had a trial: the free trial is offered once per user.
 */
export function planChangeOf(subscription: Stripe.Subscription | null, customerId: string, hadSubscription: boolean): PlanChange {
  if (!subscription) {
    return {
      status: hadSubscription ? 'canceled' : 'none',
      source: 'stripe',
      stripeCustomerId: customerId,
      stripeSubscriptionId: null,
      cancelAtPeriodEnd: false,
      operatorExpiresAt: null,
    };
  }
  return {
    status: planStatusOf(subscription.status),
    source: 'stripe',
    stripeCustomerId: customerId,
    stripeSubscriptionId: subscription.id,
    currentPeriodEnd: currentPeriodEndOf(subscription),
    trialEnd: toDate(subscription.trial_end),
    trialUsed: subscription.trial_end !== null && subscription.trial_end !== undefined,
    cancelAtPeriodEnd: subscription.cancel_at_period_end === true || (subscription.cancel_at !== null && subscription.cancel_at !== undefined && RUNNING.has(subscription.status)),
    operatorExpiresAt: null,
  };
}

/** When a cancelled subscription ends, or a running one renews (the trial's end while trialing). */
export function endOfCurrentTerm(subscription: Stripe.Subscription): Date | null {
  if (subscription.status === 'trialing' && subscription.trial_end) return toDate(subscription.trial_end);
  if (subscription.cancel_at) return toDate(subscription.cancel_at);
  return currentPeriodEndOf(subscription);
}
