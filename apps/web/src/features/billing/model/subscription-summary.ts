import type { SubscriptionDto } from '@plink/contracts';

const DAY = new Intl.DateTimeFormat('en-US', { month: 'short', day: 'numeric', year: 'numeric' });

/** A day for humans, e.g. `Dec 8, 2026` (in the browser's time zone). */
export function formatDay(iso: string): string {
  return DAY.format(new Date(iso));
}

/** When a running Pro plan ends or renews: the trial's end while trialing, else the period's (or grant's) end. */
export function planEndOf(subscription: SubscriptionDto): string | null {
  if (subscription.status === 'trialing') return subscription.trialEnd ?? subscription.currentPeriodEnd;
  return subscription.currentPeriodEnd;
}

/**
 * The one line Settings → Subscription shows about the plan: 'Free', 'Pro — trial until Dec 8, 2026',
 * 'Pro — renews …', 'Pro — cancels …', 'Payment past due', 'Pro — granted by the operator' (until …).
 */
export function planStatusText(subscription: SubscriptionDto): string {
  const end = planEndOf(subscription);
  // Past due: the renewal payment failed and Stripe retries the card (the plan may still be Pro meanwhile).
  if (subscription.status === 'past_due') return 'Payment past due';
  if (!subscription.isPremium) return 'Free';
  if (subscription.source === 'operator') {
    return end ? `Pro — granted by the operator until ${formatDay(end)}` : 'Pro — granted by the operator';
  }
  if (subscription.cancelAtPeriodEnd) return end ? `Pro — cancels ${formatDay(end)}` : 'Pro — cancelled';
  if (subscription.status === 'trialing') return end ? `Pro — trial until ${formatDay(end)}` : 'Pro — trial';
  return end ? `Pro — renews ${formatDay(end)}` : 'Pro';
}

/** Pro from a Stripe subscription that still renews: the one the creator can cancel. */
export const canCancel = (subscription: SubscriptionDto): boolean =>
  subscription.isPremium && subscription.source === 'stripe' && !subscription.cancelAtPeriodEnd;

/** Cancelled but still running: the creator can take the cancellation back. */
export const canResume = (subscription: SubscriptionDto): boolean =>
  subscription.isPremium && subscription.source === 'stripe' && subscription.cancelAtPeriodEnd;

/** Not Pro, and no past-due subscription to repair first (that is done in 'Manage billing', not a new checkout). */
export const canUpgrade = (subscription: SubscriptionDto): boolean =>
  !subscription.isPremium && !(subscription.status === 'past_due' && subscription.canManageBilling);
