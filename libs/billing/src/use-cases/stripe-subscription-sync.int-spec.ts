import { Module, type INestApplicationContext } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { EntityManager } from '@mikro-orm/postgresql';
import { Client } from 'pg';
import Stripe from 'stripe';
import { PlatformModule } from '@plink/platform';
import { loadConfig } from '@plink/config';
import { FakeStripe, createTestEnvironment, type TestEnvironment } from '@plink/testing';
import { BillingAccountsRepository } from '../accounts/billing-accounts.repository';
import { BillingCoreModule } from '../billing.module';
import { BILLING_SCHEMA } from '../billing.schema';
import { StripeConnection } from '../stripe/stripe-client';
import { StripePayments } from '../stripe/stripe.payments';
import { personKeyOf } from '../trials/person-key';
import { TrialLedger } from '../trials/trial-ledger.service';
import { ReadPlanService } from './read-plan.service';
import { StripeSubscriptionSync } from './stripe-subscription-sync.service';

/**
 * What the plan and the trials become when Stripe's answers, the user's calls and the billing worker's
 * re-reads meet, on a real database and the real SDK against FakeStripe, with the interleavings made on
 * purpose (no queue worker runs here; events are held).
 */
describe('Stripe subscription sync: answers that meet', () => {
  let env: TestEnvironment;
  let app: INestApplicationContext;
  let stripe: FakeStripe;
  let sdk: Stripe;
  let db: Client;
  let sync: StripeSubscriptionSync;
  let ledger: TrialLedger;
  let payments: StripePayments;

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
    @Module({ imports: [PlatformModule.forRoot({ config, schemas: [BILLING_SCHEMA] }), BillingCoreModule] })
    class TestModule {}
    app = await NestFactory.createApplicationContext(TestModule, { logger: false });
    await app.init();
    sync = app.get(StripeSubscriptionSync);
    ledger = app.get(TrialLedger);
    payments = new StripePayments(
      app.get(StripeConnection),
      app.get(EntityManager),
      app.get(BillingAccountsRepository),
      app.get(ReadPlanService),
      sync,
      ledger,
      'http://plink.test',
    );
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
  /** A user with the billing account and Stripe customer Plink's checkout makes, for the e-mail given. */
  async function payer(email: string) {
    n += 1;
    const userId = 2000 + n;
    const customer = await sdk.customers.create({ email, metadata: { userId: String(userId) } });
    await db.query('insert into billing.accounts (user_id, stripe_customer_id, person_key) values ($1, $2, $3)', [userId, customer.id, personKeyOf(email)]);
    return { userId, customerId: customer.id, user: { id: userId, email, isVerified: true, isPremium: false } };
  }

  /** A Checkout Session as Plink opens it (with the trial, which ends the subscription without a card, or without). */
  async function checkout(p: { userId: number; customerId: string }, withTrial: boolean) {
    const userId = String(p.userId);
    return sdk.checkout.sessions.create({
      mode: 'subscription',
      customer: p.customerId,
      client_reference_id: userId,
      line_items: [{ price: stripe.priceId, quantity: 1 }],
      payment_method_collection: 'if_required',
      subscription_data: withTrial
        ? { metadata: { userId }, trial_period_days: 14, trial_settings: { end_behavior: { missing_payment_method: 'cancel' } } }
        : { metadata: { userId } },
      success_url: 'http://plink.test/checkout/success?session_id={CHECKOUT_SESSION_ID}',
      cancel_url: 'http://plink.test/dashboard',
    });
  }

  const account = async (userId: number) =>
    (await db.query('select status, is_premium, cancel_at_period_end from billing.accounts where user_id = $1', [userId])).rows[0];
  const plan = async (userId: number) => (await app.get(ReadPlanService).find(userId))!;

  it("keeps the cancel when the worker's re-read of Stripe, answered before the cancel, arrives after it", async () => {
    const p = await payer('late.answer@example.com');
    const session = await checkout(p, false);
    await stripe.completeCheckout(session.id, { withCard: true });
    await sync.syncCustomer(p.userId, p.customerId);
    expect(await account(p.userId)).toMatchObject({ status: 'active', is_premium: true, cancel_at_period_end: false });

    // The worker handles an event: Stripe answers its read (not cancelled yet), and the answer is slow.
    const held = stripe.holdNextAnswer('GET', '/v1/subscriptions');
    const worker = sync.syncCustomer(p.userId, p.customerId);
    await held.reached;
    // Meanwhile the user cancels: the answer and the stored plan say so.
    await payments.cancelSubscription(p.user, await plan(p.userId));
    expect(await account(p.userId)).toMatchObject({ is_premium: true, cancel_at_period_end: true });

    // The worker's old answer arrives: it is not stored over the cancel (Stripe is read again).
    held.release();
    await worker;
    expect(await account(p.userId)).toMatchObject({ is_premium: true, cancel_at_period_end: true });
  });

  it('answers a finished trial checkout that the trial check ended as no success, coherent with the plan', async () => {
    const first = await payer('Pat.Doe@gmail.com');
    const firstSession = await checkout(first, true);
    await stripe.completeCheckout(firstSession.id, { withCard: false });
    await sync.syncCustomer(first.userId, first.customerId);
    expect(await account(first.userId)).toMatchObject({ status: 'trialing', is_premium: true });
    await stripe.advanceTime(2_000);

    // The same person's second account finishes a trial checkout without a card: the check ends the trial,
    // and without a card the subscription ends with it.
    const second = await payer('patdoe+two@gmail.com');
    const session = await checkout(second, true);
    await stripe.completeCheckout(session.id, { withCard: false });
    const verified = await payments.verifyCheckout(second.user, session.id);
    expect(verified).toEqual({ success: false, isPremium: false, hasActiveSubscription: false });
    expect(stripe.subscription(stripe.checkoutSession(session.id).subscription as string).status).toBe('canceled');
    expect(await account(second.userId)).toMatchObject({ status: 'canceled', is_premium: false });
    expect(await account(first.userId)).toMatchObject({ status: 'trialing', is_premium: true });
  });

  it('of two trials of one person started in the same second, ends the one recorded second, whatever their ids', async () => {
    const personKey = personKeyOf('same.second@example.com');
    const start = Math.floor(Date.now() / 1000);
    const trial = (id: string, customer: string) =>
      ({ id, object: 'subscription', status: 'trialing', customer, trial_start: start, created: start, default_payment_method: null }) as unknown as Stripe.Subscription;
    // The first trial recorded has the greater id (Stripe's ids are random).
    const first = trial('sub_zzzzSameSecond', 'cus_first');
    const second = trial('sub_aaaaSameSecond', 'cus_second');
    await ledger.record(3001, first, personKey);
    await ledger.record(3002, second, personKey);
    expect(await ledger.takenBy({ personKey, cardFingerprint: null, customerId: 'cus_second' }, second)).toBe('person');
    expect(await ledger.takenBy({ personKey, cardFingerprint: null, customerId: 'cus_first' }, first)).toBeNull();
  });
});
