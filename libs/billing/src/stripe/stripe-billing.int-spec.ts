import Stripe from 'stripe';
import { BillingMessages, CommonMessages, QueueName, type AccountEmail } from '@plink/contracts';
import type { FakeStripe } from '@plink/testing';
import { BillingTestApp, type Creator } from '../testing/billing-test-app';

const DAY_MS = 24 * 60 * 60 * 1000;

/**
 * Billing on Stripe as a creator's calls and Stripe see it: billing's HTTP side and worker (real PostgreSQL
 * and Redis) and the real `stripe` SDK talking to a local Stripe-compatible server (FakeStripe), whose
 * webhooks reach billing signed the way Stripe signs them. Billing's outputs are its answers, its calls to
 * Stripe, and what it publishes: the plan to identity, pages and leads, and the e-mails it asks identity to send.
 */
describe('billing on Stripe', () => {
  let t: BillingTestApp;
  let stripe: FakeStripe;

  beforeAll(async () => {
    t = await BillingTestApp.start({ stripe: {} });
    stripe = t.stripe!;
  });

  afterEach(() => {
    // Every test leaves the server answering and delivering.
    stripe.setDeliveryMode('auto');
  });

  afterAll(async () => {
    await t?.close();
  });

  /** A signed-in creator (verified unless asked otherwise). */
  const creator = (verified = true): Promise<Creator> => t.creator({ verified });

  /** Polls until `check` holds. */
  async function eventually(check: () => Promise<boolean>, what: string, timeoutMs = 15_000): Promise<void> {
    const started = Date.now();
    while (!(await check())) {
      if (Date.now() - started > timeoutMs) throw new Error(`not reached within ${timeoutMs} ms: ${what}`);
      await new Promise((r) => setTimeout(r, 50));
    }
  }

  /** The plan the creator's requests carry (identity's copy, as billing's 'plan.changed' sets it). */
  const user = async (c: Creator) => ({ isPremium: await t.isPremium(c.id) });
  const subscriptionOf = async (c: Creator) => (await c.client.get('/api/subscription')).body;
  const account = (c: Creator) => t.account(c.id);
  /** The account e-mail of that kind billing asked identity to send the creator (waits for the first). */
  const mailTo = (c: Creator, kind: AccountEmail) => t.email(c.id, kind);
  const mailsTo = (c: Creator, kind: AccountEmail) => t.emails(c.id, kind);
  const storedEvents = async () => (await t.db.query('select count(*)::int as n from billing.stripe_events')).rows[0].n as number;

  /** Starts checkout as the SPA does; answers the Checkout Session id. */
  async function startCheckout(c: Creator): Promise<string> {
    const answer = await c.client.post('/api/create-subscription');
    expect(answer.status).toBe(200);
    expect(answer.body.url.startsWith(`${stripe.url}/c/pay/`)).toBe(true);
    return /\/c\/pay\/(cs_[A-Za-z0-9_]+)/.exec(answer.body.url)![1];
  }

  /** The Stripe subscription of a creator (as Plink stored it). */
  async function subscriptionIdOf(c: Creator): Promise<string> {
    await eventually(async () => Boolean((await account(c))?.stripe_subscription_id), 'the subscription id is stored');
    return (await account(c))!.stripe_subscription_id;
  }

  /** Checkout finished on Stripe's page, then the creator lands on /checkout/success, which verifies it. */
  async function subscribe(c: Creator, options: { withCard?: boolean } = {}): Promise<string> {
    const sessionId = await startCheckout(c);
    await stripe.completeCheckout(sessionId, options);
    const verified = await c.client.post('/api/verify-checkout', { sessionId });
    expect(verified.body).toEqual({ success: true, isPremium: true, hasActiveSubscription: true });
    return sessionId;
  }

  it('opens Checkout with the Pro price, one customer and one open session per user, the 14-day trial without a card, promotion codes and the return URLs', async () => {
    const c = await creator();
    const before = stripe.requestsTo('POST', '/v1/customers').length;
    // Two first checkouts at once (a double click): one Stripe customer, and one session answered to both.
    const [first, second] = await Promise.all([startCheckout(c), startCheckout(c)]);
    expect(second).toBe(first);
    const customers = stripe.requestsTo('POST', '/v1/customers').slice(before);
    expect(customers).toHaveLength(1);
    expect(customers[0].params).toMatchObject({ email: c.email, metadata: { userId: String(c.id) } });
    const customerId = (await account(c))!.stripe_customer_id as string;
    expect(customerId).toMatch(/^cus_/);

    const created = stripe.requestsTo('POST', '/v1/checkout/sessions').filter((r) => r.params.client_reference_id === String(c.id));
    expect(created).toHaveLength(1);
    for (const request of created) {
      expect(request.params).toEqual(
        expect.objectContaining({
          mode: 'subscription',
          customer: customerId,
          client_reference_id: String(c.id),
          line_items: [{ price: stripe.priceId, quantity: '1' }],
          allow_promotion_codes: 'true',
          payment_method_collection: 'if_required',
          subscription_data: {
            metadata: { userId: String(c.id) },
            trial_period_days: '14',
            trial_settings: { end_behavior: { missing_payment_method: 'cancel' } },
          },
          success_url: 'http://plink.test/checkout/success?session_id={CHECKOUT_SESSION_ID}',
          cancel_url: 'http://plink.test/dashboard',
        }),
      );
    }
    expect(created[0].idempotencyKey).toEqual(expect.any(String));
    expect(stripe.checkoutSession(first).customer).toBe(customerId);
  });

  it('starts the trial without a card: Pro at once on return, the trial end in Settings and the welcome e-mail; the trial is offered once', async () => {
    const c = await creator();
    await subscribe(c);
    expect((await user(c)).isPremium).toBe(true);
    const plan = await subscriptionOf(c);
    expect(plan).toMatchObject({ isPremium: true, status: 'trialing', source: 'stripe', cancelAtPeriodEnd: false, trialAvailable: false, paymentsConfigured: true, canManageBilling: true });
    expect(Math.abs(Date.parse(plan.trialEnd) - stripe.now() * 1000 - 14 * DAY_MS)).toBeLessThan(60_000);
    // Pro reaches every copy, and the welcome e-mail says the trial started and when it ends.
    for (const queue of [QueueName.Identity, QueueName.Pages, QueueName.Leads]) {
      await eventually(async () => t.planChanges(c.id, queue).some((p) => p.isPremium && p.planStatus === 'trialing' && p.periodEnd === plan.trialEnd), `Pro reaches ${queue}`);
    }
    const welcome = await mailTo(c, 'email.pro-started');
    expect(welcome.content).toEqual({ until: plan.trialEnd, trial: true });

    // Already Pro: no second checkout.
    const again = await c.client.post('/api/create-subscription');
    expect(again.status).toBe(400);
    expect(again.body.message).toBe(BillingMessages.alreadyPremium);
    expect(again.body.message).toContain('already have a premium subscription');

    // The trial ends early (Stripe cancels it): the next checkout has no trial.
    await stripe.cancelNow(await subscriptionIdOf(c));
    await eventually(async () => !(await user(c)).isPremium, 'Pro ends when the subscription is cancelled');
    const sessionId = await startCheckout(c);
    const session = stripe.checkoutSession(sessionId);
    expect((session.subscription_data as { trial_period_days?: unknown } | undefined)?.trial_period_days).toBeUndefined();
    expect(stripe.requestsTo('POST', '/v1/checkout/sessions').at(-1)!.params.subscription_data).toEqual({ metadata: { userId: String(c.id) } });
    expect((await subscriptionOf(c)).trialAvailable).toBe(false);
    // Welcome once, the end once.
    await mailTo(c, 'email.pro-ended');
    expect(mailsTo(c, 'email.pro-started')).toHaveLength(1);
  });

  it('refuses checkout to an unverified user (403), and changes nothing', async () => {
    const c = await creator(false);
    const before = stripe.requests.length;
    const answer = await c.client.post('/api/create-subscription');
    expect(answer.status).toBe(403);
    expect(answer.body.message).toBe(BillingMessages.verifyFirst);
    expect(stripe.requests.length).toBe(before);
    expect(await account(c)).toBeUndefined();
  });

  it("answers 404 to verify-checkout of another user's session, of an unknown one, and of a malformed id", async () => {
    const owner = await creator();
    const other = await creator();
    const sessionId = await startCheckout(owner);
    await stripe.completeCheckout(sessionId);
    for (const id of [sessionId, 'cs_test_doesnotexist', 'not-a-session']) {
      const answer = await other.client.post('/api/verify-checkout', { sessionId: id });
      expect({ id, status: answer.status, body: answer.body }).toEqual({ id, status: 404, body: { message: BillingMessages.sessionNotFound } });
    }
    expect((await user(other)).isPremium).toBe(false);
    expect(await account(other)).toBeUndefined();
    expect((await owner.client.post('/api/verify-checkout', { sessionId })).body).toEqual({ success: true, isPremium: true, hasActiveSubscription: true });
  });

  it('answers verify-checkout of a session not paid yet with success false, and the plan unchanged', async () => {
    const c = await creator();
    const sessionId = await startCheckout(c);
    expect((await c.client.post('/api/verify-checkout', { sessionId })).body).toEqual({ success: false, isPremium: false, hasActiveSubscription: false });
    expect((await user(c)).isPremium).toBe(false);
  });

  describe('the webhook', () => {
    it('refuses a missing or wrong signature with 400 and stores nothing', async () => {
      const c = await creator();
      stripe.setDeliveryMode('hold');
      await stripe.completeCheckout(await startCheckout(c));
      const event = stripe.heldEvents().find((e) => e.type === 'checkout.session.completed')!;
      const { body, headers } = stripe.signedRequest(event.id);
      const before = await storedEvents();
      const post = (h: Record<string, string>, b = body) => fetch(`${t.origin}/api/webhooks/stripe`, { method: 'POST', headers: h, body: b });
      const wrongSecret = Stripe.webhooks.generateTestHeaderString({ payload: body, secret: 'whsec_not_the_right_one' });
      const tampered = body.replace(String(c.id), String(c.id + 1000));
      for (const [what, answer] of [
        ['no signature', await post({ 'content-type': 'application/json' })],
        ['another secret', await post({ 'content-type': 'application/json', 'stripe-signature': wrongSecret })],
        ['a changed body', await post(headers, tampered)],
        ['an old signature', await post({ ...headers, 'stripe-signature': stripe.signedRequest(event.id, Math.floor(Date.now() / 1000) - 3600).headers['stripe-signature'] })],
      ] as const) {
        expect({ what, status: answer.status, body: await answer.json() }).toEqual({ what, status: 400, body: { message: BillingMessages.webhookSignatureInvalid } });
      }
      // Larger than the route's own limit (1 MB, above the API's 100 KB): 413, nothing read or stored.
      const huge = await post(headers, `${body.slice(0, -1)},"padding":"${'x'.repeat(1024 * 1024)}"}`);
      expect({ status: huge.status, body: await huge.json() }).toEqual({ status: 413, body: { message: CommonMessages.bodyTooLarge } });
      expect(await storedEvents()).toBe(before);
      expect((await user(c)).isPremium).toBe(false);
      // Signed with the endpoint's secret (as a test signs it with the SDK): taken, even above the API's 100 KB.
      const large = `${body.slice(0, -1)},"padding":"${'x'.repeat(200 * 1024)}"}`;
      const signed = Stripe.webhooks.generateTestHeaderString({ payload: large, secret: stripe.webhookSecret });
      const ok = await post({ 'content-type': 'application/json', 'stripe-signature': signed }, large);
      expect(ok.status).toBe(200);
      expect(await ok.json()).toEqual({ received: true, duplicate: false });
      await eventually(async () => (await user(c)).isPremium, 'the signed event makes the user Pro');
    });

    it('handles a redelivered event once: 200, nothing stored or sent again', async () => {
      const c = await creator();
      await subscribe(c, { withCard: true });
      await mailTo(c, 'email.pro-started');
      await stripe.settled();
      const created = stripe.eventsOfType('customer.subscription.created').find((e) => (e.data as { object: { metadata: Record<string, string> } }).object.metadata.userId === String(c.id))!;
      await eventually(
        async () => (await t.db.query('select processed_at from billing.stripe_events where id = $1', [created.id])).rows[0]?.processed_at != null,
        'the event is processed',
      );
      const before = await t.db.query('select processed_at, outcome from billing.stripe_events where id = $1', [created.id]);
      const count = await storedEvents();
      const delivery = await stripe.redeliver(created.id);
      expect(delivery.status).toBe(200);
      const { body, headers } = stripe.signedRequest(created.id);
      const answer = await fetch(`${t.origin}/api/webhooks/stripe`, { method: 'POST', headers, body });
      expect(await answer.json()).toEqual({ received: true, duplicate: true });
      expect(await storedEvents()).toBe(count);
      expect((await t.db.query('select count(*)::int as n from platform.outbox where payload->>\'eventId\' = $1', [created.id])).rows[0].n).toBe(0);
      await new Promise((r) => setTimeout(r, 300));
      expect((await t.db.query('select processed_at, outcome from billing.stripe_events where id = $1', [created.id])).rows).toEqual(before.rows);
      expect(mailsTo(c, 'email.pro-started')).toHaveLength(1);
    });

    it('ends Pro when subscription.deleted arrives before subscription.created (out of order)', async () => {
      const c = await creator();
      stripe.setDeliveryMode('hold');
      const sessionId = await startCheckout(c);
      await stripe.completeCheckout(sessionId, { withCard: true });
      const subscriptionId = stripe.checkoutSession(sessionId).subscription as string;
      await stripe.cancelNow(subscriptionId);
      const held = stripe.heldEvents().filter((e) => JSON.stringify(e.data).includes(subscriptionId) || JSON.stringify(e.data).includes(sessionId));
      const deleted = held.find((e) => e.type === 'customer.subscription.deleted')!;
      const createdEvent = held.find((e) => e.type === 'customer.subscription.created')!;
      expect(deleted && createdEvent).toBeTruthy();
      // Newest first: the deletion, then everything before it (created, checkout completed, invoice paid).
      expect((await stripe.deliver(deleted.id)).status).toBe(200);
      await eventually(async () => (await account(c))?.status === 'canceled', 'the deletion is applied');
      for (const event of held.filter((e) => e.id !== deleted.id).reverse()) expect((await stripe.deliver(event.id)).status).toBe(200);
      await eventually(
        async () =>
          (await t.db.query('select count(*)::int as n from billing.stripe_events where user_id = $1 and processed_at is not null', [c.id])).rows[0].n === held.length,
        'every event is processed',
      );
      expect(await account(c)).toMatchObject({ status: 'canceled', is_premium: false });
      expect((await user(c)).isPremium).toBe(false);
      const outcomes = (await t.db.query('select type, outcome from billing.stripe_events where id = $1', [createdEvent.id])).rows[0];
      expect(outcomes).toEqual({ type: 'customer.subscription.created', outcome: expect.stringMatching(/^(stale|unchanged)$/) });
    });

    it('logs and marks processed an event of a customer Plink does not know', async () => {
      const foreign = await new Stripe(stripe.secretKey, { host: '127.0.0.1', port: stripe.port, protocol: 'http' }).customers.create({ email: 'someone@else.example' });
      await stripe.settled();
      const c = await creator();
      // A subscription of that customer, made by hand in Stripe's dashboard: its events name no Plink user.
      stripe.setDeliveryMode('hold');
      const session = await new Stripe(stripe.secretKey, { host: '127.0.0.1', port: stripe.port, protocol: 'http' }).checkout.sessions.create({
        mode: 'subscription',
        customer: foreign.id,
        line_items: [{ price: stripe.priceId, quantity: 1 }],
        success_url: 'http://elsewhere.example/ok',
        cancel_url: 'http://elsewhere.example/no',
      });
      await stripe.completeCheckout(session.id, { withCard: true });
      const held = stripe.heldEvents().filter((e) => JSON.stringify(e.data).includes(foreign.id));
      expect(held.length).toBeGreaterThan(0);
      for (const event of held) await stripe.deliver(event.id);
      await eventually(
        async () =>
          (await t.db.query('select count(*)::int as n from billing.stripe_events where id = any($1) and processed_at is not null', [held.map((e) => e.id)])).rows[0].n ===
          held.length,
        'the foreign events are marked processed',
      );
      const outcomes = await t.db.query('select distinct outcome, user_id from billing.stripe_events where id = any($1)', [held.map((e) => e.id)]);
      expect(outcomes.rows).toEqual([{ outcome: 'unknown-customer', user_id: null }]);
      expect((await t.db.query('select count(*)::int as n from billing.accounts where stripe_customer_id = $1', [foreign.id])).rows[0].n).toBe(0);
      expect((await user(c)).isPremium).toBe(false);
    });
  });

  it('cancels at period end: Pro until the subscription ends, then the end e-mail; Resume undoes a cancellation', async () => {
    const c = await creator();
    await subscribe(c, { withCard: true });
    const subscriptionId = await subscriptionIdOf(c);
    const periodEnd = (stripe.subscription(subscriptionId).items as { data: { current_period_end: number }[] }).data[0].current_period_end;

    const cancelled = await c.client.post('/api/cancel-subscription');
    expect(cancelled.status).toBe(200);
    expect(cancelled.body).toEqual({ message: 'Subscription cancelled', endsAt: new Date(periodEnd * 1000).toISOString() });
    expect(stripe.subscription(subscriptionId).cancel_at_period_end).toBe(true);
    // In the trial (a card given): it ends with the trial.
    expect(await subscriptionOf(c)).toMatchObject({ isPremium: true, status: 'trialing', cancelAtPeriodEnd: true });
    expect((await user(c)).isPremium).toBe(true);

    const resumed = await c.client.post('/api/resume-subscription');
    expect(resumed.status).toBe(200);
    expect(resumed.body).toEqual({ message: 'Subscription resumed', renewsAt: new Date(periodEnd * 1000).toISOString() });
    expect(stripe.subscription(subscriptionId).cancel_at_period_end).toBe(false);
    expect(await subscriptionOf(c)).toMatchObject({ isPremium: true, cancelAtPeriodEnd: false });
    const nothing = await c.client.post('/api/resume-subscription');
    expect(nothing.status).toBe(400);
    expect(nothing.body.message).toBe(BillingMessages.nothingToResume);

    expect((await c.client.post('/api/cancel-subscription')).status).toBe(200);
    await stripe.advanceTime(periodEnd * 1000 - stripe.now() * 1000 - 60_000);
    expect((await user(c)).isPremium).toBe(true); // a minute before the end
    await stripe.advanceTime(2 * 60_000);
    await eventually(async () => !(await user(c)).isPremium, 'Pro ends with the subscription.deleted event');
    expect(await account(c)).toMatchObject({ status: 'canceled', is_premium: false });
    await mailTo(c, 'email.pro-ended');
    const after = await c.client.post('/api/cancel-subscription');
    expect(after.status).toBe(400);
    expect(after.body.message).toBe(BillingMessages.noSubscription);
  });

  it("opens the Billing Portal for the caller's customer, returning to Settings → Subscription", async () => {
    const none = await creator();
    const refused = await none.client.post('/api/billing-portal');
    expect(refused.status).toBe(400);
    expect(refused.body.message).toBe(BillingMessages.noBillingAccount);

    const c = await creator();
    await subscribe(c);
    const answer = await c.client.post('/api/billing-portal');
    expect(answer.status).toBe(200);
    expect(answer.body.url.startsWith(stripe.url)).toBe(true);
    expect(stripe.requestsTo('POST', '/v1/billing_portal/sessions').at(-1)!.params).toEqual({
      customer: (await account(c))!.stripe_customer_id,
      return_url: 'http://plink.test/settings?tab=subscription',
    });
  });

  it('keeps Pro while a failed renewal is retried, and e-mails the creator a link to update the card', async () => {
    const c = await creator();
    await subscribe(c, { withCard: true });
    const subscriptionId = await subscriptionIdOf(c);
    await stripe.failNextPayment(subscriptionId);
    const periodEnd = (stripe.subscription(subscriptionId).items as { data: { current_period_end: number }[] }).data[0].current_period_end;
    await stripe.advanceTime(periodEnd * 1000 - stripe.now() * 1000 + 60_000);
    expect(stripe.subscription(subscriptionId).status).toBe('past_due');
    // The e-mail that links to Settings → Subscription to update the card (its text is the notifications service's).
    await mailTo(c, 'email.payment-failed');
    await eventually(async () => (await account(c))?.status === 'past_due', 'the plan is past due');
    expect((await user(c)).isPremium).toBe(true);
    expect(await subscriptionOf(c)).toMatchObject({ isPremium: true, status: 'past_due' });

    // The retry succeeds: active again, no other e-mail.
    await stripe.payInvoice(subscriptionId);
    await eventually(async () => (await account(c))?.status === 'active', 'active again once paid');
    expect(mailsTo(c, 'email.payment-failed')).toHaveLength(1);
    expect(mailsTo(c, 'email.pro-ended')).toHaveLength(0);
  });

  it('e-mails 3 days before the trial ends, then ends Pro with the trial when no card was added', async () => {
    const c = await creator();
    await subscribe(c);
    const subscriptionId = await subscriptionIdOf(c);
    const trialEnd = stripe.subscription(subscriptionId).trial_end as number;
    await stripe.advanceTime((trialEnd - stripe.now()) * 1000 - 3 * DAY_MS + 60_000);
    // The reminder says the day the trial ends, and that no card was added (the e-mail then asks for one).
    const reminder = await mailTo(c, 'email.trial-ending');
    expect(reminder.content).toEqual({ trialEnd: new Date(trialEnd * 1000).toISOString(), cardOnFile: false });
    expect((await user(c)).isPremium).toBe(true);

    await stripe.advanceTime(3 * DAY_MS);
    await eventually(async () => !(await user(c)).isPremium, 'Pro ends with the trial');
    expect(stripe.subscription(subscriptionId).status).toBe('canceled');
    await mailTo(c, 'email.pro-ended');
    expect(mailsTo(c, 'email.trial-ending')).toHaveLength(1);
  });

  it('re-reads the subscription from Stripe on the status check and the reset, and corrects the plan (updated)', async () => {
    const c = await creator();
    await subscribe(c, { withCard: true });
    await stripe.settled();
    expect((await c.client.post('/api/check-subscription-status')).body).toEqual({ hasActiveSubscription: true, updated: false, isPremium: true });
    // Stripe ends the subscription, and its webhooks do not arrive (held).
    stripe.setDeliveryMode('hold');
    await stripe.cancelNow(await subscriptionIdOf(c));
    expect((await user(c)).isPremium).toBe(true);
    const checked = await c.client.post('/api/check-subscription-status');
    expect(checked.body).toEqual({ hasActiveSubscription: false, updated: true, isPremium: false });
    await eventually(async () => !(await user(c)).isPremium, 'the user is no longer Pro');
    expect((await c.client.post('/api/admin/reset-subscription-status')).body).toEqual({ hasActiveSubscription: false, updated: false, isPremium: false });
    // The events, late: nothing changes.
    await stripe.deliverHeld();
    expect((await c.client.post('/api/check-subscription-status')).body).toEqual({ hasActiveSubscription: false, updated: false, isPremium: false });
  });

  it('answers 503 and changes nothing while Stripe cannot be reached or fails', async () => {
    const c = await creator();
    await stripe.goDown();
    try {
      const answer = await c.client.post('/api/create-subscription');
      expect(answer.status).toBe(503);
      expect(answer.body.message).toBe(BillingMessages.providerUnavailable);
    } finally {
      await stripe.comeBack();
    }
    expect((await account(c))?.stripe_customer_id ?? null).toBeNull();
    stripe.failRequests(10, 500);
    const failed = await c.client.post('/api/create-subscription');
    expect(failed.status).toBe(503);
    expect(failed.body.message).toBe(BillingMessages.providerUnavailable);
    stripe.failRequests(0);
    expect((await account(c))?.stripe_customer_id ?? null).toBeNull();

    // A subscriber's status check while Stripe is away: 503, the stored plan kept.
    await subscribe(c, { withCard: true });
    await stripe.goDown();
    try {
      const checked = await c.client.post('/api/check-subscription-status');
      expect(checked.status).toBe(503);
      expect(checked.body.message).toBe(BillingMessages.providerUnavailable);
      expect((await c.client.post('/api/cancel-subscription')).status).toBe(503);
    } finally {
      await stripe.comeBack();
    }
    expect(await account(c)).toMatchObject({ status: 'trialing', is_premium: true, cancel_at_period_end: false });
    expect((await user(c)).isPremium).toBe(true);
  });
});
