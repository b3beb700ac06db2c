import { Injectable } from '@nestjs/common';
import type Stripe from 'stripe';
import type { BillingAccount } from '../accounts/billing-account.entity';
import { idOf } from '../stripe/subscription-state';
import { personKeyOf } from './person-key';
import { TrialsTakenRepository, type TrialSubject } from './trials-taken.repository';

/** Which of a trial subject's marks was found on an earlier trial (the card first). */
export type TrialMatch = 'card' | 'person' | 'customer';

/** The fingerprint of the card a subscription pays with, when Stripe sent its payment method expanded. */
export function cardFingerprintOf(subscription: Stripe.Subscription): string | null {
  const method = subscription.default_payment_method;
  if (!method || typeof method === 'string') return null;
  return method.card?.fingerprint ?? null;
}

/** A subscription that started with a trial (it keeps `trial_start` after the trial ends). */
export function hadTrial(subscription: Stripe.Subscription): boolean {
  return subscription.trial_start !== null && subscription.trial_start !== undefined;
}

/**
 * The free trials that were taken (billing.trials_taken): one per person, not per account. A person is
 * known by the hash of their normalised e-mail, the fingerprint of their card and their Stripe customer.
 */
@Injectable()
export class TrialLedger {
  constructor(private readonly trialsTaken: TrialsTakenRepository) {}

  /**
   * What shows that this person had a trial already: their e-mail, their card or their customer on a trial
   * taken before (before the trial of `before`, when given: the earlier of two trials is never the one
   * ended); null when nothing does. Trials are ordered by their start, then, as Stripe's times are in
   * seconds, by the order they were recorded in (a trial not recorded yet comes after every other).
   */
  async takenBy(subject: TrialSubject, before: Stripe.Subscription | null = null): Promise<TrialMatch | null> {
    const started = before?.trial_start ? new Date(before.trial_start * 1000) : null;
    const row = await this.trialsTaken.findMatch(subject, { startedAt: started, subscriptionId: before?.id ?? '' });
    if (!row) return null;
    return row.card ? 'card' : row.person ? 'person' : 'customer';
  }

  /** Whether the free trial is still offered to this user: neither their account nor their person had one. */
  async availableTo(email: string, account: BillingAccount | null): Promise<boolean> {
    if (account?.trialUsed) return false;
    return (await this.takenBy({ personKey: personKeyOf(email), cardFingerprint: null, customerId: account?.stripeCustomerId ?? null })) === null;
  }

  /** Records the trial of a subscription (again: a card added since fills in its fingerprint). */
  async record(userId: number, subscription: Stripe.Subscription, personKey: string | null): Promise<void> {
    await this.trialsTaken.record({
      subscriptionId: subscription.id,
      userId,
      personKey,
      cardFingerprint: cardFingerprintOf(subscription),
      customerId: idOf(subscription.customer),
      startedAt: new Date((subscription.trial_start ?? subscription.created) * 1000),
    });
  }
}
