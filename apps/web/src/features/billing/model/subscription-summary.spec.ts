import { makeSubscription } from '../../../test/fetch-mock';
import { canCancel, canResume, canUpgrade, formatDay, planStatusText } from './subscription-summary';

// Noon UTC: the same calendar day in every time zone the tests may run in.
const DEC_8 = '2026-12-08T12:00:00.000Z';

describe('planStatusText', () => {
  it('says Free for a user who never subscribed, or whose subscription ended', () => {
    expect(planStatusText(makeSubscription())).toBe('Free');
    expect(planStatusText(makeSubscription({ status: 'canceled', trialAvailable: false }))).toBe('Free');
  });

  it('gives the trial, renewal and cancellation dates of a Stripe subscription', () => {
    const pro = { isPremium: true, source: 'stripe' as const, trialAvailable: false };
    expect(planStatusText(makeSubscription({ ...pro, status: 'trialing', trialEnd: DEC_8, currentPeriodEnd: DEC_8 }))).toBe(
      'Pro — trial until Dec 8, 2026',
    );
    expect(planStatusText(makeSubscription({ ...pro, status: 'active', currentPeriodEnd: DEC_8 }))).toBe(
      'Pro — renews Dec 8, 2026',
    );
    expect(
      planStatusText(makeSubscription({ ...pro, status: 'active', currentPeriodEnd: DEC_8, cancelAtPeriodEnd: true })),
    ).toBe('Pro — cancels Dec 8, 2026');
    expect(
      planStatusText(makeSubscription({ ...pro, status: 'trialing', trialEnd: DEC_8, cancelAtPeriodEnd: true })),
    ).toBe('Pro — cancels Dec 8, 2026');
  });

  it('says when a payment is past due', () => {
    const pastDue = makeSubscription({ status: 'past_due', source: 'stripe', currentPeriodEnd: DEC_8 });
    expect(planStatusText(pastDue)).toBe('Payment past due');
    expect(planStatusText({ ...pastDue, isPremium: true })).toBe('Payment past due');
  });

  it("names the operator's grant, with its end when it has one", () => {
    const grant = { isPremium: true, status: 'active' as const, source: 'operator' as const };
    expect(planStatusText(makeSubscription(grant))).toBe('Pro — granted by the operator');
    expect(planStatusText(makeSubscription({ ...grant, currentPeriodEnd: DEC_8 }))).toBe(
      'Pro — granted by the operator until Dec 8, 2026',
    );
  });
});

describe('the actions offered', () => {
  const running = makeSubscription({ isPremium: true, status: 'active', source: 'stripe', currentPeriodEnd: DEC_8 });
  const cancelled = { ...running, cancelAtPeriodEnd: true };
  const grant = makeSubscription({ isPremium: true, status: 'active', source: 'operator' });

  it('cancels a running Stripe subscription, resumes a cancelled one, neither for a grant', () => {
    expect([canCancel(running), canResume(running)]).toEqual([true, false]);
    expect([canCancel(cancelled), canResume(cancelled)]).toEqual([false, true]);
    expect([canCancel(grant), canResume(grant)]).toEqual([false, false]);
  });

  it('offers the upgrade to Free users, except to repair a past-due subscription (Manage billing does)', () => {
    expect(canUpgrade(makeSubscription())).toBe(true);
    expect(canUpgrade(running)).toBe(false);
    expect(canUpgrade(makeSubscription({ status: 'past_due', source: 'stripe', canManageBilling: true }))).toBe(false);
  });
});

it('formats days for humans', () => {
  expect(formatDay(DEC_8)).toBe('Dec 8, 2026');
});
