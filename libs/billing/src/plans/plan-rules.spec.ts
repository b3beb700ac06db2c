import { decidePremium, periodEndOf } from './plan-rules';

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
