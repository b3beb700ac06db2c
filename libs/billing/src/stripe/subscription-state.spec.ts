import type Stripe from 'stripe';
import { stripeServerOptions as stripeServerOptionsForTest } from './stripe-client';
import { currentPeriodEndOf, endOfCurrentTerm, pickCurrentSubscription, planChangeOf, planStatusOf } from './subscription-state';

/** A subscription as Stripe sends it, with only the fields Plink reads. */
function subscription(fields: Partial<Stripe.Subscription> & { periodEnd?: number }): Stripe.Subscription {
  const { periodEnd, ...rest } = fields;
  return {
    id: 'sub_1',
    object: 'subscription',
    created: 1_700_000_000,
    status: 'active',
    customer: 'cus_1',
    cancel_at: null,
    cancel_at_period_end: false,
    trial_end: null,
    metadata: {},
    items: { object: 'list', data: periodEnd ? [{ current_period_end: periodEnd } as Stripe.SubscriptionItem] : [], has_more: false, url: '' },
    ...rest,
  } as Stripe.Subscription;
}

describe('Stripe subscription → plan', () => {
  it("maps Stripe's statuses to the stored ones: unpaid and incomplete_expired end Pro, incomplete is not Pro yet", () => {
    expect(planStatusOf('trialing')).toBe('trialing');
    expect(planStatusOf('active')).toBe('active');
    expect(planStatusOf('past_due')).toBe('past_due');
    expect(planStatusOf('paused')).toBe('paused');
    expect(planStatusOf('canceled')).toBe('canceled');
    expect(planStatusOf('unpaid')).toBe('canceled');
    expect(planStatusOf('incomplete_expired')).toBe('canceled');
    expect(planStatusOf('incomplete')).toBe('none');
  });

  it('reads the period end from the items (recent API versions), or the older top-level field', () => {
    expect(currentPeriodEndOf(subscription({ periodEnd: 1_800_000_000 }))).toEqual(new Date(1_800_000_000_000));
    const legacy = { ...subscription({}), current_period_end: 1_700_500_000 } as Stripe.Subscription;
    expect(currentPeriodEndOf(legacy)).toEqual(new Date(1_700_500_000_000));
    expect(currentPeriodEndOf(subscription({}))).toBeNull();
  });

  it('picks the running subscription over an ended one, the newest of several', () => {
    const ended = subscription({ id: 'sub_old', status: 'canceled', created: 3 });
    const running = subscription({ id: 'sub_run', status: 'past_due', created: 2 });
    const older = subscription({ id: 'sub_older', status: 'active', created: 1 });
    expect(pickCurrentSubscription([older, ended, running])?.id).toBe('sub_run');
    expect(pickCurrentSubscription([subscription({ id: 'a', status: 'canceled', created: 1 }), ended])?.id).toBe('sub_old');
    expect(pickCurrentSubscription([])).toBeNull();
  });

  it('of several running subscriptions, picks one that renews over one set to end (the plan must not say cancelled while one still charges)', () => {
    const newerEnding = subscription({ id: 'sub_newer', status: 'active', created: 5, cancel_at_period_end: true });
    const olderRenewing = subscription({ id: 'sub_older', status: 'active', created: 4 });
    expect(pickCurrentSubscription([newerEnding, olderRenewing])?.id).toBe('sub_older');
    const bothEnding = subscription({ id: 'sub_both', status: 'trialing', created: 3, cancel_at: 1_800_000_000 });
    expect(pickCurrentSubscription([bothEnding, newerEnding])?.id).toBe('sub_newer');
  });

  it('describes the plan change: ids, dates, the trial as used, a scheduled cancellation', () => {
    const trialing = subscription({ status: 'trialing', trial_end: 1_800_000_000, periodEnd: 1_800_000_000 });
    expect(planChangeOf(trialing, 'cus_1', false)).toEqual({
      status: 'trialing',
      source: 'stripe',
      stripeCustomerId: 'cus_1',
      stripeSubscriptionId: 'sub_1',
      currentPeriodEnd: new Date(1_800_000_000_000),
      trialEnd: new Date(1_800_000_000_000),
      trialUsed: true,
      cancelAtPeriodEnd: false,
      operatorExpiresAt: null,
    });
    const cancelling = planChangeOf(subscription({ cancel_at_period_end: true, periodEnd: 1_800_000_000 }), 'cus_1', true);
    expect(cancelling).toMatchObject({ status: 'active', cancelAtPeriodEnd: true, trialUsed: false });
    expect(planChangeOf(null, 'cus_1', true)).toMatchObject({ status: 'canceled', stripeSubscriptionId: null });
    expect(planChangeOf(null, 'cus_1', false)).toMatchObject({ status: 'none' });
  });

  it('names when a cancelled subscription ends: the trial end while trialing, else the period end', () => {
    expect(endOfCurrentTerm(subscription({ status: 'trialing', trial_end: 1_750_000_000, periodEnd: 1_750_000_000 }))).toEqual(new Date(1_750_000_000_000));
    expect(endOfCurrentTerm(subscription({ periodEnd: 1_760_000_000 }))).toEqual(new Date(1_760_000_000_000));
  });

  it('points the SDK at STRIPE_API_URL, or at Stripe itself', () => {
    expect(stripeServerOptionsForTest('http://127.0.0.1:12111')).toEqual({ host: '127.0.0.1', port: '12111', protocol: 'http' });
    expect(stripeServerOptionsForTest('https://stripe.internal.example')).toEqual({ host: 'stripe.internal.example', port: 443, protocol: 'https' });
    expect(stripeServerOptionsForTest(undefined)).toEqual({});
  });
});
