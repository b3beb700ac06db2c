import { Injectable } from '@nestjs/common';
import type Stripe from 'stripe';
import { getLogger } from '@plink/observability';
import { StripeConnection } from '../stripe/stripe-client';
import { idOf, isRunning, pickCurrentSubscription, planChangeOf } from '../stripe/subscription-state';
import { TrialLedger, cardFingerprintOf, hadTrial } from '../trials/trial-ledger.service';
import { ApplyPlanService, type AppliedPlan } from './apply-plan.service';
import { ReadPlanService } from './read-plan.service';

export interface SyncOptions {
  /** The Stripe event's time (webhooks): a state older than the last event applied is not stored. */
  eventAt?: Date;
}

export interface ApplyOptions extends SyncOptions {
  /** The stored plan's version (`planVersion`) read before the subscription was asked of Stripe. */
  basedOn: number;
}

export interface SyncResult extends AppliedPlan {
  /** The subscription that decided the plan (null: the customer has none). */
  subscription: Stripe.Subscription | null;
  /** The stored plan changed (Pro or its status). */
  changed: boolean;
}

/** Reads of Stripe after which a sync stores what it read even if another change was stored meanwhile. */
const SYNC_ATTEMPTS = 5;

/**
 * Brings a user's stored plan in line with their Stripe subscription as Stripe has it now. Webhook events,
 * the end of a checkout, the status check, cancel and the reset all come here, so whatever order events
 * arrive in, the plan follows Stripe's current state rather than the event's snapshot. A state is stored
 * only if no other change was stored since it was asked of Stripe (else Stripe is read again): the billing
 * worker's answer that was on its way while the user cancelled cannot put back the plan before the cancel.
 * An operator grant that is running is not replaced by a subscription that is not (a grant is given on
 * purpose).
 *
 * Every trial that starts is recorded (one per person), and a trial of a person who already had one (the
 * same normalised e-mail, card or customer on a trial recorded earlier) is ended at once: Stripe then
 * charges the card, or ends the subscription when there is none. A customer with more than one running
 * subscription (two checkouts finished at once) is logged as an error: each is still checked, and the plan
 * follows one that renews.
 */
@Injectable()
export class StripeSubscriptionSync {
  constructor(
    private readonly stripe: StripeConnection,
    private readonly plans: ReadPlanService,
    private readonly applyPlan: ApplyPlanService,
    private readonly trials: TrialLedger,
  ) {}

  /** Re-reads the customer's subscriptions (Stripe errors propagate: nothing is changed then). */
  async syncCustomer(userId: number, customerId: string, options: SyncOptions = {}): Promise<SyncResult> {
    for (let attempt = 1; ; attempt += 1) {
      const before = await this.plans.find(userId);
      const list = await this.stripe.api.subscriptions.list({ customer: customerId, status: 'all', limit: 20, expand: ['data.default_payment_method'] });
      const running = list.data.filter(isRunning);
      if (running.length > 1 && attempt === 1) {
        getLogger().error({ userId, customerId, subscriptions: running.map((s) => s.id) }, 'customer has more than one running subscription');
      }
      const personKey = before?.personKey ?? null;
      const checked: Stripe.Subscription[] = [];
      for (const subscription of list.data) checked.push(await this.checkTrial(userId, subscription, personKey));
      // The last attempt stores what it read: every other one lost to a change stored meanwhile.
      const basedOn = attempt < SYNC_ATTEMPTS ? (before?.planVersion ?? 0) : undefined;
      const result = await this.store(userId, customerId, pickCurrentSubscription(checked), { ...options, basedOn });
      if (!result.conflict) return result;
      getLogger().info({ userId, attempt }, 'plan changed while Stripe was read: reading again');
    }
  }

  /**
   * Stores the plan a subscription (read from Stripe after `basedOn` was read) makes, after the check of its
   * trial; when another change was stored since, the customer is read again instead.
   */
  async applySubscription(userId: number, customerId: string, subscription: Stripe.Subscription | null, options: ApplyOptions): Promise<SyncResult> {
    const checked = subscription ? await this.checkTrial(userId, subscription, (await this.plans.find(userId))?.personKey ?? null) : null;
    const result = await this.store(userId, customerId, checked, options);
    if (!result.conflict) return result;
    return this.syncCustomer(userId, customerId, { eventAt: options.eventAt });
  }

  /**
   * A running trial of a person who had a trial before is ended now (the subscription as Stripe answers
   * it then); a subscription that had a trial is recorded as this person's, before the check, so that of
   * two trials of one person checked at once, the one recorded second is ended.
   */
  private async checkTrial(userId: number, subscription: Stripe.Subscription, personKey: string | null): Promise<Stripe.Subscription> {
    if (!hadTrial(subscription)) return subscription;
    await this.trials.record(userId, subscription, personKey);
    if (subscription.status !== 'trialing') return subscription;
    const cardFingerprint = cardFingerprintOf(subscription);
    const subject = { personKey, cardFingerprint, customerId: idOf(subscription.customer) };
    const match = await this.trials.takenBy(subject, subscription);
    if (!match) return subscription;
    const current = await this.stripe.api.subscriptions.update(
      subscription.id,
      { trial_end: 'now', expand: ['default_payment_method'] },
      { idempotencyKey: `plink-trial-end-${subscription.id}` },
    );
    getLogger().warn({ userId, subscriptionId: subscription.id, seenBefore: match, status: current.status }, 'trial of a person who already had one: ended now');
    await this.trials.record(userId, current, personKey);
    return current;
  }

  private async store(
    userId: number,
    customerId: string,
    subscription: Stripe.Subscription | null,
    options: SyncOptions & { basedOn?: number },
  ): Promise<SyncResult> {
    const before = await this.plans.find(userId);
    const change = planChangeOf(subscription, customerId, Boolean(before?.stripeSubscriptionId));
    const applied = await this.applyPlan.applyPlan(userId, change, {
      eventAt: options.eventAt,
      basedOn: options.basedOn,
      when: (account) => {
        if (account.source === 'operator' && account.isPremium) return change.status === 'active' || change.status === 'trialing' || change.status === 'past_due';
        // Nothing to store: already this state (a replay, or the webhook after verify-checkout).
        return !sameState(account, change);
      },
    });
    const changed = applied.applied && (applied.wasPremium !== applied.isPremium || before?.status !== applied.account.status);
    return { ...applied, subscription, changed };
  }
}

function sameState(
  account: { status: string; source?: string | null; stripeCustomerId?: string | null; stripeSubscriptionId?: string | null; currentPeriodEnd?: Date | null; trialEnd?: Date | null; cancelAtPeriodEnd: boolean },
  change: ReturnType<typeof planChangeOf>,
): boolean {
  const sameTime = (a: Date | null | undefined, b: Date | null | undefined) => (a?.getTime() ?? null) === (b?.getTime() ?? null);
  return (
    account.source === 'stripe' &&
    account.status === change.status &&
    (account.stripeCustomerId ?? null) === (change.stripeCustomerId ?? null) &&
    (account.stripeSubscriptionId ?? null) === (change.stripeSubscriptionId ?? null) &&
    account.cancelAtPeriodEnd === (change.cancelAtPeriodEnd ?? false) &&
    (change.currentPeriodEnd === undefined || sameTime(account.currentPeriodEnd, change.currentPeriodEnd)) &&
    (change.trialEnd === undefined || sameTime(account.trialEnd, change.trialEnd))
  );
}
