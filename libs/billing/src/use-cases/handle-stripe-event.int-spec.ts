import { BadRequestException, Module, type INestApplicationContext } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { Client } from 'pg';
import Stripe from 'stripe';
import { QueueName, type JobEnvelope } from '@plink/contracts';
import { PlatformModule } from '@plink/platform';
import { JobQueue } from '@plink/queue';
import { loadConfig } from '@plink/config';
import { FakeStripe, createTestEnvironment, type TestEnvironment } from '@plink/testing';
import { BillingCoreModule } from '../billing.module';
import { BILLING_SCHEMA } from '../billing.schema';
import { HandleStripeEventService } from './handle-stripe-event.service';
import { RecordStripeEventService } from './record-stripe-event.service';

/**
 * The webhook intake and the billing worker's handling of an event, on a real database and Redis and the
 * real SDK against FakeStripe, driven one event at a time (no queue worker runs here): what is stored, what
 * an event does to the plan, and what it does when handled twice, late, or while Stripe is away.
 */
describe('Stripe events: intake and handling', () => {
  let env: TestEnvironment;
  let app: INestApplicationContext;
  let stripe: FakeStripe;
  let sdk: Stripe;
  let db: Client;
  let intake: RecordStripeEventService;
  let handler: HandleStripeEventService;
  let jobs: JobQueue;

  beforeAll(async () => {
    stripe = await FakeStripe.start({ deliver: 'hold' });
    sdk = new Stripe(stripe.secretKey, { host: '127.0.0.1', port: stripe.port, protocol: 'http' });
    env = await createTestEnvironment({
      STRIPE_SECRET_KEY: stripe.secretKey,
      STRIPE_WEBHOOK_SECRET: stripe.webhookSecret,
      STRIPE_PRICE_ID: stripe.priceId,
      STRIPE_API_URL: stripe.url,
    });
    const config = loadConfig(env.vars);
    @Module({
      imports: [PlatformModule.forRoot({ config, schemas: [BILLING_SCHEMA] }), BillingCoreModule],
      providers: [RecordStripeEventService, HandleStripeEventService],
    })
    class TestModule {}
    app = await NestFactory.createApplicationContext(TestModule, { logger: false });
    await app.init();
    intake = app.get(RecordStripeEventService);
    handler = app.get(HandleStripeEventService);
    jobs = app.get(JobQueue);
    db = new Client({ connectionString: env.database.url });
    await db.connect();
  });

  afterAll(async () => {
    await app?.close();
    await db?.end();
    await env?.cleanup();
    await stripe?.close();
  });

  let n = 0;
  /**
   * A user, and a Stripe subscription of theirs made through Checkout as Plink makes it (events held):
   * Plink's checkout creates the user's billing account before the customer; the customer is not stored on
   * it here, so events find the user by the id Plink gave the checkout.
   */
  async function subscriber(options: { withCard?: boolean } = {}) {
    n += 1;
    const userId = 1000 + n;
    await db.query('insert into billing.accounts (user_id) values ($1)', [userId]);
    const customer = await sdk.customers.create({ email: `event.user.${n}@example.com`, metadata: { userId: String(userId) } });
    const session = await sdk.checkout.sessions.create({
      mode: 'subscription',
      customer: customer.id,
      client_reference_id: String(userId),
      line_items: [{ price: stripe.priceId, quantity: 1 }],
      payment_method_collection: 'if_required',
      subscription_data: { metadata: { userId: String(userId) }, trial_period_days: 14, trial_settings: { end_behavior: { missing_payment_method: 'cancel' } } },
      success_url: 'http://plink.test/checkout/success?session_id={CHECKOUT_SESSION_ID}',
      cancel_url: 'http://plink.test/dashboard',
    });
    await stripe.completeCheckout(session.id, options);
    const subscriptionId = stripe.checkoutSession(session.id).subscription as string;
    return { userId, customerId: customer.id, subscriptionId };
  }

  /** Stores a held event as the webhook would (signed with the endpoint's secret). */
  async function receive(eventId: string) {
    const { body, headers } = stripe.signedRequest(eventId);
    return intake.execute(body, headers['stripe-signature']);
  }

  const eventsOf = (type: string, subscriptionId: string) =>
    stripe.events.filter((e) => e.type === type && JSON.stringify(e.data).includes(subscriptionId));
  const account = async (userId: number) =>
    (await db.query('select status, is_premium, stripe_customer_id, stripe_subscription_id, trial_used, last_event_at from billing.accounts where user_id = $1', [userId])).rows[0];
  const stored = async (eventId: string) => (await db.query('select type, processed_at, outcome, user_id from billing.stripe_events where id = $1', [eventId])).rows[0];

  /** The account e-mails recorded for a user (with identity, which addresses them), by name (read back from the queue: no worker takes them here). */
  async function emailJobs(userId: number, name: string, expected: number): Promise<number> {
    const deadline = Date.now() + 3_000;
    for (;;) {
      const waiting = await jobs.queue(QueueName.Identity).getJobs(['waiting', 'delayed', 'prioritized']);
      const count = waiting.filter((job) => {
        const payload = (job.data as JobEnvelope).payload as { userId: number; email?: string };
        return job.name === 'identity.account-email' && payload.email === name && payload.userId === userId;
      }).length;
      if (count >= expected || Date.now() > deadline) return count;
      await new Promise((r) => setTimeout(r, 50));
    }
  }

  it('stores an event once and records its job with it; a replay records nothing', async () => {
    const { subscriptionId } = await subscriber();
    const [created] = eventsOf('customer.subscription.created', subscriptionId);
    expect(await receive(created.id)).toEqual({ eventId: created.id, type: 'customer.subscription.created', stored: true });
    expect(await receive(created.id)).toEqual({ eventId: created.id, type: 'customer.subscription.created', stored: false });
    expect(await stored(created.id)).toEqual({ type: 'customer.subscription.created', processed_at: null, outcome: null, user_id: null });
    // The job leaves the outbox for the billing queue (no worker takes it here): exactly one.
    const deadline = Date.now() + 5_000;
    let mine: unknown[] = [];
    while (mine.length === 0 && Date.now() < deadline) {
      await new Promise((r) => setTimeout(r, 50));
      const waitingJobs = await jobs.queue(QueueName.Billing).getJobs(['waiting', 'delayed', 'prioritized']);
      mine = waitingJobs.filter((job) => ((job.data as JobEnvelope).payload as { eventId: string }).eventId === created.id);
    }
    await new Promise((r) => setTimeout(r, 200));
    const again = await jobs.queue(QueueName.Billing).getJobs(['waiting', 'delayed', 'prioritized']);
    expect(again.filter((job) => ((job.data as JobEnvelope).payload as { eventId: string }).eventId === created.id)).toHaveLength(1);
  });

  it("applies the subscription's current state, and handles an event only once", async () => {
    const { userId, customerId, subscriptionId } = await subscriber();
    const [created] = eventsOf('customer.subscription.created', subscriptionId);
    await receive(created.id);
    expect(await handler.execute(created.id)).toBe('applied');
    expect(await account(userId)).toMatchObject({ status: 'trialing', is_premium: true, stripe_customer_id: customerId, stripe_subscription_id: subscriptionId, trial_used: true });
    expect(await stored(created.id)).toMatchObject({ outcome: 'applied', user_id: userId, processed_at: expect.any(Date) });
    expect(await handler.execute(created.id)).toBeNull();
    expect(await emailJobs(userId, 'email.pro-started', 1)).toBe(1);
  });

  it('leaves the plan to a newer event already applied: an older one handled late stores nothing (stale)', async () => {
    const { userId, subscriptionId } = await subscriber({ withCard: true });
    await stripe.cancelNow(subscriptionId);
    const [created] = eventsOf('customer.subscription.created', subscriptionId);
    const [deleted] = eventsOf('customer.subscription.deleted', subscriptionId);
    await receive(deleted.id);
    await receive(created.id);
    expect(await handler.execute(deleted.id)).toBe('applied');
    expect(await account(userId)).toMatchObject({ status: 'canceled', is_premium: false });
    const outcome = await handler.execute(created.id);
    expect(outcome === 'stale' || outcome === 'unchanged').toBe(true);
    expect(await account(userId)).toMatchObject({ status: 'canceled', is_premium: false });
    expect(await emailJobs(userId, 'email.pro-started', 0)).toBe(0);
  });

  it('fails while Stripe cannot be reached (BullMQ tries again) and leaves the event unprocessed', async () => {
    const { userId, subscriptionId } = await subscriber();
    const [created] = eventsOf('customer.subscription.created', subscriptionId);
    await receive(created.id);
    await stripe.goDown();
    try {
      await expect(handler.execute(created.id)).rejects.toThrow();
    } finally {
      await stripe.comeBack();
    }
    expect(await stored(created.id)).toMatchObject({ processed_at: null, outcome: null });
    // The account as checkout left it: no plan, no customer, no event stored on it.
    expect(await account(userId)).toMatchObject({ is_premium: false, stripe_customer_id: null, stripe_subscription_id: null, trial_used: false, last_event_at: null });
    expect(await handler.execute(created.id)).toBe('applied');
  });

  it('sends the trial-ending e-mail once, with the trial end, and none for a trial already cancelled', async () => {
    const { userId, subscriptionId } = await subscriber();
    await handler.execute((await receive(eventsOf('customer.subscription.created', subscriptionId)[0].id)).eventId);
    const trialEnd = stripe.subscription(subscriptionId).trial_end as number;
    await stripe.advanceTime((trialEnd - stripe.now()) * 1000 - 3 * 24 * 3600 * 1000 + 1_000);
    const [reminder] = eventsOf('customer.subscription.trial_will_end', subscriptionId);
    await receive(reminder.id);
    expect(['applied', 'unchanged']).toContain(await handler.execute(reminder.id));
    expect(await handler.execute(reminder.id)).toBeNull();
    expect(await emailJobs(userId, 'email.trial-ending', 1)).toBe(1);
    const job = (await jobs.queue(QueueName.Identity).getJobs(['waiting'])).find((j) => {
      const payload = (j.data as JobEnvelope).payload as { userId: number; email?: string };
      return j.name === 'identity.account-email' && payload.email === 'email.trial-ending' && payload.userId === userId;
    })!;
    expect((job.data as JobEnvelope).payload).toEqual({
      v: 1,
      userId,
      email: 'email.trial-ending',
      content: { trialEnd: new Date(trialEnd * 1000).toISOString(), cardOnFile: false },
    });

    // A trial the user cancelled: no reminder.
    const leaving = await subscriber();
    await sdk.subscriptions.update(leaving.subscriptionId, { cancel_at_period_end: true });
    const updated = eventsOf('customer.subscription.updated', leaving.subscriptionId).at(-1)!;
    await receive(updated.id);
    expect(await handler.execute(updated.id)).toBe('applied');
    const leavingEnd = stripe.subscription(leaving.subscriptionId).trial_end as number;
    await stripe.advanceTime((leavingEnd - stripe.now()) * 1000 - 3 * 24 * 3600 * 1000 + 1_000);
    const [leavingReminder] = eventsOf('customer.subscription.trial_will_end', leaving.subscriptionId);
    await receive(leavingReminder.id);
    await handler.execute(leavingReminder.id);
    expect(await stored(leavingReminder.id)).toMatchObject({ processed_at: expect.any(Date), user_id: leaving.userId });
    expect(await emailJobs(leaving.userId, 'email.trial-ending', 0)).toBe(0);
  });

  it('marks an event of an unknown customer processed without touching any plan', async () => {
    const customer = await sdk.customers.create({ email: 'nobody@else.example' });
    const session = await sdk.checkout.sessions.create({
      mode: 'subscription',
      customer: customer.id,
      line_items: [{ price: stripe.priceId, quantity: 1 }],
      success_url: 'http://elsewhere.example/ok',
      cancel_url: 'http://elsewhere.example/no',
    });
    await stripe.completeCheckout(session.id, { withCard: true });
    const [completed] = stripe.events.filter((e) => e.type === 'checkout.session.completed' && JSON.stringify(e.data).includes(session.id));
    await receive(completed.id);
    const accounts = (await db.query('select count(*)::int as n from billing.accounts')).rows[0].n;
    expect(await handler.execute(completed.id)).toBe('unknown-customer');
    expect(await stored(completed.id)).toMatchObject({ outcome: 'unknown-customer', user_id: null, processed_at: expect.any(Date) });
    expect((await db.query('select count(*)::int as n from billing.accounts')).rows[0].n).toBe(accounts);
  });

  it('marks an event naming a user billing does not know (no account from a checkout of Plink) processed, and makes no account', async () => {
    const stranger = 9_999;
    const customer = await sdk.customers.create({ email: 'stranger@example.com', metadata: { userId: String(stranger) } });
    const session = await sdk.checkout.sessions.create({
      mode: 'subscription',
      customer: customer.id,
      client_reference_id: String(stranger),
      line_items: [{ price: stripe.priceId, quantity: 1 }],
      subscription_data: { metadata: { userId: String(stranger) } },
      success_url: 'http://plink.test/checkout/success?session_id={CHECKOUT_SESSION_ID}',
      cancel_url: 'http://plink.test/dashboard',
    });
    await stripe.completeCheckout(session.id, { withCard: true });
    const [completed] = stripe.events.filter((e) => e.type === 'checkout.session.completed' && JSON.stringify(e.data).includes(session.id));
    await receive(completed.id);
    expect(await handler.execute(completed.id)).toBe('unknown-customer');
    expect(await account(stranger)).toBeUndefined();
  });

  it('refuses an event signed with another secret, or not signed, and stores nothing', async () => {
    const [event] = stripe.events;
    const { body } = stripe.signedRequest(event.id);
    const wrong = Stripe.webhooks.generateTestHeaderString({ payload: body, secret: 'whsec_other' });
    const before = (await db.query('select count(*)::int as n from billing.stripe_events')).rows[0].n;
    await expect(intake.execute(body, wrong)).rejects.toBeInstanceOf(BadRequestException);
    await expect(intake.execute(body, undefined)).rejects.toBeInstanceOf(BadRequestException);
    await expect(intake.execute(undefined, wrong)).rejects.toBeInstanceOf(BadRequestException);
    expect((await db.query('select count(*)::int as n from billing.stripe_events')).rows[0].n).toBe(before);
  });
});
