import { decidePremium, leadRemovalAtOf, leadRemovalStep, periodEndOf } from './plan-rules';

describe('plan rules', () => {
  const now = new Date('2026-11-23T12:00:00Z');
  const later = new Date('2026-11-24T12:00:00Z');
  const earlier = new Date('2026-11-22T12:00:00Z');

  it('makes active, trialing and past-due subscriptions Pro (Stripe retries a failed card meanwhile), and nothing else', () => {
    for (const status of ['active', 'trialing', 'past_due'] as const) {
      expect(decidePremium({ status, source: 'stripe', operatorExpiresAt: null }, now)).toBe(true);
    }
    for (const status of ['none', 'canceled', 'paused'] as const) {
      expect(decidePremium({ status, source: 'stripe', operatorExpiresAt: null }, now)).toBe(false);
    }
  });

  it('keeps an operator grant Pro until its expiry, and forever without one', () => {
    expect(decidePremium({ status: 'active', source: 'operator', operatorExpiresAt: later }, now)).toBe(true);
    expect(decidePremium({ status: 'active', source: 'operator', operatorExpiresAt: earlier }, now)).toBe(false);
    expect(decidePremium({ status: 'active', source: 'operator', operatorExpiresAt: now }, now)).toBe(false);
    expect(decidePremium({ status: 'active', source: 'operator', operatorExpiresAt: null }, now)).toBe(true);
    expect(decidePremium({ status: 'canceled', source: 'operator', operatorExpiresAt: null }, now)).toBe(false);
  });

  it('names the end of the grant, the trial or the period', () => {
    const base = { trialEnd: earlier, currentPeriodEnd: later };
    expect(periodEndOf({ ...base, status: 'active', source: 'operator', operatorExpiresAt: now })).toBe(now);
    expect(periodEndOf({ ...base, status: 'trialing', source: 'stripe', operatorExpiresAt: null })).toBe(earlier);
    expect(periodEndOf({ ...base, status: 'active', source: 'stripe', operatorExpiresAt: null })).toBe(later);
  });
});

describe('the removal of paused pages\' leads after a downgrade', () => {
  const downgradedAt = new Date('2026-11-01T09:00:00Z');
  const atDay = (days: number, hours = 0) => new Date(downgradedAt.getTime() + days * 86_400_000 + hours * 3_600_000);
  const downgraded = { isPremium: false, downgradedAt };

  it('is due 30 days after the downgrade, and never while Pro, without a downgrade, or once done', () => {
    expect(leadRemovalAtOf(downgraded)).toEqual(atDay(30));
    expect(leadRemovalAtOf({ isPremium: true, downgradedAt })).toBeNull();
    expect(leadRemovalAtOf({ isPremium: false, downgradedAt: null })).toBeNull();
    expect(leadRemovalAtOf({ ...downgraded, leadRemovalWarnedAt: atDay(23), leadsRemovedAt: atDay(30) })).toBeNull();
  });

  it('warns from day 23, once, then removes from day 30', () => {
    expect(leadRemovalStep(downgraded, atDay(22, 23))).toBeNull();
    expect(leadRemovalStep(downgraded, atDay(23))).toBe('warn');
    const warned = { ...downgraded, leadRemovalWarnedAt: atDay(23, 1) };
    expect(leadRemovalStep(warned, atDay(25))).toBeNull();
    expect(leadRemovalStep(warned, atDay(29, 23))).toBeNull();
    expect(leadRemovalAtOf(warned)).toEqual(atDay(30));
    expect(leadRemovalStep(warned, atDay(30))).toBe('remove');
    expect(leadRemovalStep({ ...warned, leadsRemovedAt: atDay(30) }, atDay(31))).toBeNull();
  });

  it('never removes without the warning: a late warning moves the removal a week after it', () => {
    expect(leadRemovalStep(downgraded, atDay(40))).toBe('warn');
    const lateWarning = { ...downgraded, leadRemovalWarnedAt: atDay(40) };
    expect(leadRemovalAtOf(lateWarning)).toEqual(atDay(47));
    expect(leadRemovalStep(lateWarning, atDay(46))).toBeNull();
    expect(leadRemovalStep(lateWarning, atDay(47))).toBe('remove');
  });

  it('does nothing for a user who is Pro again', () => {
    expect(leadRemovalStep({ isPremium: true, downgradedAt: null }, atDay(30))).toBeNull();
  });
});
