import { ControlledRedis, FakeStripe, SmtpCatcher, type CaughtMail } from '@plink/testing';
import { startTestGateway, type TestGateway } from './testing/test-gateway';

/**
 * Stripe's webhooks while Redis is down: the gateway still answers them 200 (the event and its job are in
 * PostgreSQL), and the plan change is applied once Redis is back. The gateway and its workers run on a
 * redis-server of the test's own, killed and restarted (with AOF, as deployed, so sessions survive).
 */
describe('Stripe webhooks during a Redis outage', () => {
  let redis: ControlledRedis;
  let stripe: FakeStripe;
  let smtp: SmtpCatcher;
  let gateway: TestGateway;

  beforeAll(async () => {
    redis = await ControlledRedis.start({ appendOnly: true });
    smtp = await SmtpCatcher.start();
    stripe = await FakeStripe.start({ deliver: 'hold' });
    gateway = await startTestGateway({
      REDIS_URL: redis.url,
      SMTP_URL: smtp.url,
      PLINK_WORKERS: 'all',
      AUTH_RATE_LIMIT_PER_MINUTE: '0',
      STRIPE_SECRET_KEY: stripe.secretKey,
      STRIPE_WEBHOOK_SECRET: stripe.webhookSecret,
      STRIPE_PRICE_ID: stripe.priceId,
      STRIPE_API_URL: stripe.url,
    });
    stripe.setWebhookUrl(`${gateway.origin}/api/webhooks/stripe`);
  });

  afterAll(async () => {
    if (redis && !redis.running) await redis.start();
    await gateway?.close();
    await stripe?.close();
    await smtp?.stop();
    await redis?.destroy();
  });

  async function eventually(check: () => Promise<boolean>, what: string, timeoutMs = 30_000): Promise<void> {
    const started = Date.now();
    while (!(await check().catch(() => false))) {
      if (Date.now() - started > timeoutMs) throw new Error(`not reached within ${timeoutMs} ms: ${what}`);
      await new Promise((r) => setTimeout(r, 100));
    }
  }

  it('answers the events 200 while Redis is stopped and applies them once it is back', async () => {
    const browser = gateway.browser();
    const who = { username: 'outage_payer', email: 'outage.payer@example.com', password: 'secret-password' };
    const registered = await browser.post('/api/register', who);
    expect(registered.status).toBe(201);
    await gateway.db.query('update identity.users set is_verified = true where id = $1', [registered.body.id]);
    const checkout = await browser.post('/api/create-subscription');
    expect(checkout.status).toBe(200);
    const sessionId = /\/c\/pay\/(cs_[A-Za-z0-9_]+)/.exec(checkout.body.url)![1];
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
    const stored = await gateway.db.query('select id, processed_at from billing.stripe_events order by received_at');
    expect(stored.rows.map((r) => r.id).sort()).toEqual(held.map((e) => e.id).sort());
    const waiting = await gateway.db.query("select count(*)::int as n from platform.outbox where job_name = 'billing.stripe-event'");
    expect(waiting.rows[0].n).toBeGreaterThan(0);
    const plan = await gateway.db.query('select is_premium from billing.accounts where user_id = $1', [registered.body.id]);
    expect(plan.rows[0]?.is_premium ?? false).toBe(false);

    await redis.start();
    await eventually(async () => (await browser.get('/api/user')).body?.isPremium === true, 'the user is Pro after Redis is back');
    await eventually(
      async () => (await gateway.db.query('select count(*)::int as n from billing.stripe_events where processed_at is null')).rows[0].n === 0,
      'every event is processed',
    );
    const welcome = await smtp.waitFor((m: CaughtMail) => m.to.includes(who.email) && m.subject === 'Welcome to Plink Pro', 30_000);
    expect(welcome.text).toContain('Your free Pro trial has started.');
  }, 90_000);
});
