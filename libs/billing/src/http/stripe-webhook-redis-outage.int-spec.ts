import { QueueName } from '@plink/contracts';
import { ControlledRedis, eventually } from '@plink/testing';
import { BillingTestApp } from '../testing/billing-test-app';

/**
 * Stripe's webhooks while Redis is down: billing still answers them 200 (the event and its job are in
 * PostgreSQL), and the plan change is applied and published once Redis is back. Billing's HTTP side and worker
 * run on a redis-server of the test's own, killed and restarted (with AOF, as deployed).
 *
 * @run-alone: it bounds how fast Stripe gets an answer while Redis is down.
 */
describe('Stripe webhooks during a Redis outage', () => {
  let redis: ControlledRedis;
  let t: BillingTestApp;

  beforeAll(async () => {
    redis = await ControlledRedis.start({ appendOnly: true });
    t = await BillingTestApp.start({ overrides: { REDIS_URL: redis.url }, stripe: { deliver: 'hold' } });
  });

  afterAll(async () => {
    if (redis && !redis.running) await redis.start();
    await t?.close();
    await redis?.destroy();
  });

  it('answers the events 200 while Redis is stopped and applies them once it is back', async () => {
    const stripe = t.stripe!;
    const payer = await t.creator({ email: 'outage.payer@example.com' });
    const { sessionId } = await t.startCheckout(payer);
    // The payer finishes on Stripe; Stripe's events are held until Redis is down.
    await stripe.completeCheckout(sessionId);
    const held = stripe.heldEvents();
    expect(held.map((e) => e.type)).toEqual(expect.arrayContaining(['checkout.session.completed', 'customer.subscription.created']));

    await redis.stop();
    for (const event of held) {
      const started = Date.now();
      const delivery = await stripe.deliver(event.id);
      expect({ type: event.type, status: delivery.status }).toEqual({ type: event.type, status: 200 });
      expect(Date.now() - started).toBeLessThan(5_000);
    }
    const stored = await t.db.query('select id, processed_at from billing.stripe_events order by received_at');
    expect(stored.rows.map((r) => r.id).sort()).toEqual(held.map((e) => e.id).sort());
    const waiting = await t.db.query("select count(*)::int as n from platform.outbox where job_name = 'billing.stripe-event'");
    expect(waiting.rows[0].n).toBeGreaterThan(0);
    expect((await t.account(payer.id))?.is_premium ?? false).toBe(false);
    expect(t.planChanges(payer.id)).toEqual([]);

    await redis.start();
    // Pro reaches identity, pages and leads, and the welcome e-mail (the trial's) is asked of identity.
    for (const queue of [QueueName.Identity, QueueName.Pages, QueueName.Leads]) {
      await eventually(async () => t.planChanges(payer.id, queue).some((c) => c.isPremium && c.planStatus === 'trialing'), 30_000);
    }
    await eventually(() => t.isPremium(payer.id), 30_000);
    await eventually(
      async () => (await t.db.query('select count(*)::int as n from billing.stripe_events where processed_at is null')).rows[0].n === 0,
      30_000,
    );
    const welcome = await t.email(payer.id, 'email.pro-started', 0, 30_000);
    expect(welcome.content).toMatchObject({ trial: true });
  }, 90_000);
});
