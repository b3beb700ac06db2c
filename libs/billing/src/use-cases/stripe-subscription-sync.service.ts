import { Injectable } from '@nestjs/common';
import type Stripe from 'stripe';
import { StripeConnection } from '../stripe/stripe-client';
import { pickCurrentSubscription, planChangeOf } from '../stripe/subscription-state';
import { ApplyPlanService, type AppliedPlan } from './apply-plan.service';
import { ReadPlanService } from './read-plan.service';

export interface SyncOptions {
  /** The Stripe event's time (webhooks): a state older than the last event applied is not stored. */
  eventAt?: Date;
}

export interface SyncResult extends AppliedPlan {
  /** The subscription that decided the plan (null: the customer has none). */
  subscription: Stripe.Subscription | null;
  /** The stored plan changed (Pro or its status). */
  changed: boolean;
}

/**
 * Brings a user's stored plan in line with their Stripe subscription as Stripe has it now. Webhook events,
 * the end of a checkout, the status check and the reset all come here, so whatever order events arrive in,
 * the plan follows Stripe's current state rather than the event's snapshot. An operator grant that is
 * running is not replaced by a subscription that is not (a grant is given on purpose).
 */
@Injectable()
export class StripeSubscriptionSync {
  constructor(
    private readonly stripe: StripeConnection,
    private readonly plans: ReadPlanService,
    private readonly applyPlan: ApplyPlanService,
  ) {}

  /** Re-reads the customer's subscriptions (Stripe errors propagate: nothing is changed then). */
  async syncCustomer(userId: number, customerId: string, options: SyncOptions = {}): Promise<SyncResult> {
    const list = await this.stripe.api.subscriptions.list({ customer: customerId, status: 'all', limit: 20 });
    return this.applySubscription(userId, customerId, pickCurrentSubscription(list.data), options);
  }

  /** Stores the plan a subscription (already read from Stripe) makes. */
  async applySubscription(userId: number, customerId: string, subscription: Stripe.Subscription | null, options: SyncOptions = {}): Promise<SyncResult> {
    const before = await this.plans.find(userId);
    const change = planChangeOf(subscription, customerId, Boolean(before?.stripeSubscriptionId));
    const applied = await this.applyPlan.applyPlan(userId, change, {
      eventAt: options.eventAt,
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
