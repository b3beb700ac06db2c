import { createServer, type Server } from 'node:http';
import Stripe from 'stripe';
import { FakeStripe, type StripeObject } from './fake-stripe';

/**
 * The local Stripe server driven by the real `stripe` SDK, the way the billing service uses it: its answers
 * must be what the SDK expects from Stripe (objects, errors, idempotency) and its webhooks must pass
 * `stripe.webhooks.constructEvent`.
 */

const DAY_MS = 86_400_000;

/** A webhook endpoint that checks each delivery's signature as an application would. */
class WebhookReceiver {
  readonly events: Stripe.Event[] = [];
  readonly rejected: string[] = [];
  /** Status to answer; 200 unless a test makes the endpoint fail. */
  answer = 200;
  private server!: Server;
  port = 0;

  constructor(private readonly secret: () => string) {}

  async start(): Promise<void> {
    this.server = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => {
        const body = Buffer.concat(chunks).toString('utf8');
        try {
          const event = Stripe.webhooks.constructEvent(body, req.headers['stripe-signature'] as string, this.secret());
          if (this.answer === 200) this.events.push(event);
        } catch (err) {
          this.rejected.push((err as Error).message);
          res.writeHead(400).end('bad signature');
          return;
        }
        res.writeHead(this.answer, { 'content-type': 'application/json' }).end('{"received":true}');
      });
    });
    await new Promise<void>((resolve) => this.server.listen(0, '127.0.0.1', resolve));
    this.port = (this.server.address() as { port: number }).port;
  }

  get url(): string {
    return `http://127.0.0.1:${this.port}/webhook`;
  }

  types(): string[] {
    return this.events.map((e) => e.type);
  }

  async stop(): Promise<void> {
    this.server.closeAllConnections();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }
}

function sdk(fake: FakeStripe, key = fake.secretKey, options: Partial<Stripe.StripeConfig> = {}): Stripe {
  return new Stripe(key, { host: '127.0.0.1', port: fake.port, protocol: 'http', maxNetworkRetries: 0, ...options });
}

async function caught(promise: Promise<unknown>): Promise<any> {
  try {
    await promise;
  } catch (err) {
    return err;
  }
  throw new Error('expected the call to fail');
}

function trialCheckout(stripe: Stripe, fake: FakeStripe, customer: string, extra: Partial<Stripe.Checkout.SessionCreateParams> = {}) {
  return stripe.checkout.sessions.create({
    mode: 'subscription',
    customer,
    client_reference_id: '42',
    line_items: [{ price: fake.priceId, quantity: 1 }],
    success_url: 'http://plink.test/checkout/success?session_id={CHECKOUT_SESSION_ID}',
    cancel_url: 'http://plink.test/checkout?canceled=1',
    payment_method_collection: 'if_required',
    subscription_data: { trial_period_days: 14, trial_settings: { end_behavior: { missing_payment_method: 'cancel' } }, metadata: { userId: '42' } },
    metadata: { userId: '42' },
    ...extra,
  });
}

describe('FakeStripe through the stripe SDK', () => {
  let fake: FakeStripe;
  let stripe: Stripe;
  let receiver: WebhookReceiver;

  beforeEach(async () => {
    receiver = new WebhookReceiver(() => fake.webhookSecret);
    await receiver.start();
    fake = await FakeStripe.start({ webhookUrl: receiver.url });
    stripe = sdk(fake);
  });

  afterEach(async () => {
    await fake.close();
    await receiver.stop();
  });

  it('runs a trial without a card from checkout to its end: trialing, trial_will_end, then canceled', async () => {
    const customer = await stripe.customers.create({ email: 'ada@example.com', metadata: { userId: '42' } });
    expect(customer).toMatchObject({ object: 'customer', email: 'ada@example.com', livemode: false, metadata: { userId: '42' } });
    expect(customer.id).toMatch(/^cus_/);

    const session = await trialCheckout(stripe, fake, customer.id);
    expect(session.id).toMatch(/^cs_test_/);
    expect(session).toMatchObject({
      object: 'checkout.session',
      status: 'open',
      mode: 'subscription',
      subscription: null,
      payment_status: 'unpaid',
      client_reference_id: '42',
      customer: customer.id,
      url: `${fake.url}/c/pay/${session.id}`,
    });
    // What the application asked for, as Stripe received it.
    const [request] = fake.requestsTo('POST', '/v1/checkout/sessions');
    expect(request.params.subscription_data).toEqual({ trial_period_days: '14', trial_settings: { end_behavior: { missing_payment_method: 'cancel' } }, metadata: { userId: '42' } });
    expect(request.idempotencyKey).toEqual(expect.any(String));

    const page = await fetch(session.url!).then((r) => r.text());
    expect(page).toContain('<title>Plink test checkout</title>');
    expect(page).toContain('14 days free, then $10.00 per month');
    expect(page).toContain('>Start trial</button>');
    expect(page).not.toContain('promotion_code');

    await fake.completeCheckout(session.id, { withCard: false });
    const done = await stripe.checkout.sessions.retrieve(session.id, { expand: ['subscription', 'customer'] });
    expect(done).toMatchObject({ status: 'complete', payment_status: 'no_payment_required', url: null });
    expect((done.customer as Stripe.Customer).email).toBe('ada@example.com');
    const sub = done.subscription as Stripe.Subscription;
    expect(sub.id).toMatch(/^sub_/);
    expect(sub).toMatchObject({ status: 'trialing', customer: customer.id, cancel_at_period_end: false, metadata: { userId: '42' } });
    expect(sub.trial_end! - sub.trial_start!).toBe(14 * 86_400);
    expect(sub.items.data[0].price.id).toBe(fake.priceId);
    expect(sub.items.data[0].current_period_end).toBe(sub.trial_end);
    expect(receiver.types()).toEqual(['customer.created', 'customer.subscription.created', 'invoice.paid', 'checkout.session.completed']);
    const completed = receiver.events[3].data.object as Stripe.Checkout.Session;
    expect(completed).toMatchObject({ id: session.id, subscription: sub.id, client_reference_id: '42', status: 'complete' });

    await fake.advanceTime(10 * DAY_MS);
    expect(receiver.types()).not.toContain('customer.subscription.trial_will_end');
    // A second past the 11th day: the fake's clock counts whole seconds, and a trial started late in one
    // second could otherwise fall a fraction short of its "3 days before the end" moment.
    await fake.advanceTime(1 * DAY_MS + 1_000);
    expect(receiver.types().at(-1)).toBe('customer.subscription.trial_will_end');
    expect((await stripe.subscriptions.retrieve(sub.id)).status).toBe('trialing');

    await fake.advanceTime(3 * DAY_MS);
    const ended = await stripe.subscriptions.retrieve(sub.id);
    expect(ended).toMatchObject({ status: 'canceled', ended_at: sub.trial_end });
    const deleted = receiver.events.at(-1)!;
    expect(deleted.type).toBe('customer.subscription.deleted');
    expect((deleted.data.object as Stripe.Subscription).status).toBe('canceled');
    expect(fake.deliveries.every((d) => d.ok)).toBe(true);
  });

  it('turns a trial with a card into a paid month, renews it, and ends it at the period end after cancel_at_period_end', async () => {
    const customer = await stripe.customers.create({ email: 'bo@example.com' });
    const session = await trialCheckout(stripe, fake, customer.id);
    await fake.completeCheckout(session.id, { withCard: true });
    const subId = (await stripe.checkout.sessions.retrieve(session.id)).subscription as string;

    await fake.advanceTime(14 * DAY_MS + 1000);
    const active = await stripe.subscriptions.retrieve(subId, { expand: ['latest_invoice'] });
    expect(active.status).toBe('active');
    const invoice = active.latest_invoice as Stripe.Invoice;
    expect(invoice).toMatchObject({ status: 'paid', amount_paid: 1000, billing_reason: 'subscription_cycle', customer: customer.id });
    expect(invoice.parent?.subscription_details?.subscription).toBe(subId);
    const item = active.items.data[0];
    expect(item.current_period_start).toBe(active.trial_end);
    expect(item.current_period_end - item.current_period_start).toBeGreaterThanOrEqual(28 * 86_400);
    const toActive = receiver.events.find((e) => e.type === 'customer.subscription.updated')!;
    expect(toActive.data.previous_attributes).toMatchObject({ status: 'trialing' });

    await fake.advanceTo(item.current_period_end);
    const renewed = await stripe.subscriptions.retrieve(subId);
    expect(renewed.items.data[0].current_period_start).toBe(item.current_period_end);
    expect(receiver.types().filter((t) => t === 'invoice.paid')).toHaveLength(3); // the trial's $0, the first month, the renewal

    const canceling = await stripe.subscriptions.update(subId, { cancel_at_period_end: true });
    expect(canceling).toMatchObject({ status: 'active', cancel_at_period_end: true, cancel_at: renewed.items.data[0].current_period_end });
    await fake.settled();
    const updated = receiver.events.at(-1)!;
    expect(updated.type).toBe('customer.subscription.updated');
    expect(updated.data.previous_attributes).toMatchObject({ cancel_at_period_end: false });
    expect(updated.request).toMatchObject({ id: expect.stringMatching(/^req_/) });

    await fake.advanceTime(40 * DAY_MS);
    const ended = await stripe.subscriptions.retrieve(subId);
    expect(ended.status).toBe('canceled');
    expect(ended.ended_at).toBe(renewed.items.data[0].current_period_end);
    expect(receiver.types().at(-1)).toBe('customer.subscription.deleted');
    const all = await stripe.subscriptions.list({ customer: customer.id, status: 'all' });
    expect(all).toMatchObject({ object: 'list', has_more: false, url: '/v1/subscriptions' });
    expect(all.data.map((s) => s.id)).toEqual([subId]);
    expect((await stripe.subscriptions.list({ customer: customer.id })).data).toEqual([]);
  });

  it("gives each card number one fingerprint across customers, and ends a trial at once on trial_end 'now'", async () => {
    const first = await stripe.customers.create({ email: 'cy@example.com' });
    const second = await stripe.customers.create({ email: 'dee@example.com' });
    const subscriptionOf = async (customer: string, cardNumber?: string) => {
      const session = await trialCheckout(stripe, fake, customer);
      await fake.completeCheckout(session.id, cardNumber ? { cardNumber } : { withCard: true });
      const done = await stripe.checkout.sessions.retrieve(session.id, { expand: ['subscription.default_payment_method'] });
      return done.subscription as Stripe.Subscription;
    };
    const a = await subscriptionOf(first.id, '4000 0566 5566 5556');
    const b = await subscriptionOf(second.id, '4000056655665556');
    const c = await subscriptionOf(second.id);
    const card = (sub: Stripe.Subscription) => (sub.default_payment_method as Stripe.PaymentMethod).card!;
    expect(card(a)).toMatchObject({ brand: 'visa', last4: '5556', fingerprint: expect.stringMatching(/^[A-Za-z0-9]{16}$/) });
    expect(card(b).fingerprint).toBe(card(a).fingerprint);
    expect(card(c)).toMatchObject({ last4: '4242' });
    expect(card(c).fingerprint).not.toBe(card(a).fingerprint);
    const listed = await stripe.subscriptions.list({ customer: second.id, expand: ['data.default_payment_method'] });
    expect(listed.data.map((s) => card(s).fingerprint).sort()).toEqual([card(a).fingerprint, card(c).fingerprint].sort());
    const method = await stripe.paymentMethods.retrieve((a.default_payment_method as Stripe.PaymentMethod).id);
    expect(method).toMatchObject({ object: 'payment_method', type: 'card', customer: first.id });

    // The trial ends now: a period starts now, charged to the card.
    await fake.settled();
    const before = receiver.events.length;
    const ended = await stripe.subscriptions.update(b.id, { trial_end: 'now', expand: ['latest_invoice'] });
    const now = fake.now();
    expect(ended).toMatchObject({ status: 'active', trial_end: now, trial_start: b.trial_start });
    expect(ended.items.data[0]).toMatchObject({ current_period_start: now });
    expect(ended.latest_invoice as Stripe.Invoice).toMatchObject({ status: 'paid', amount_paid: 1000, billing_reason: 'subscription_update' });
    await fake.settled();
    const events = receiver.events.slice(before);
    expect(events.map((e) => e.type)).toEqual(['customer.subscription.updated', 'invoice.paid']);
    expect(events[0].data.previous_attributes).toMatchObject({ status: 'trialing', trial_end: b.trial_end });
    const again = await caught(stripe.subscriptions.update(b.id, { trial_end: 'now' }));
    expect(again).toMatchObject({ statusCode: 400, param: 'trial_end', message: 'This subscription is not in a trial.' });

    // Without a card, the trial's end does what trial_settings says (here: cancel).
    const cardless = await trialCheckout(stripe, fake, first.id);
    await fake.completeCheckout(cardless.id, { withCard: false });
    const cardlessSub = (await stripe.checkout.sessions.retrieve(cardless.id)).subscription as string;
    expect(await stripe.subscriptions.update(cardlessSub, { trial_end: 'now' })).toMatchObject({ status: 'canceled' });
    // A later time moves the trial's end; a past one is refused.
    const moved = await stripe.subscriptions.update(c.id, { trial_end: now + 3 * 86_400 });
    expect(moved).toMatchObject({ status: 'trialing', trial_end: now + 3 * 86_400 });
    expect(moved.items.data[0].current_period_end).toBe(now + 3 * 86_400);
    expect(await caught(stripe.subscriptions.update(c.id, { trial_end: now - 10 }))).toMatchObject({ statusCode: 400, param: 'trial_end' });
  });

  it('completes the hosted checkout page like a browser: 303 to success_url, a promotion code, then the page is closed', async () => {
    const session = await stripe.checkout.sessions.create({
      mode: 'subscription',
      customer_email: 'cy@example.com',
      line_items: [{ price: fake.priceId, quantity: 1 }],
      success_url: 'http://plink.test/checkout/success?session_id={CHECKOUT_SESSION_ID}',
      cancel_url: 'http://plink.test/checkout',
      allow_promotion_codes: true,
    });
    const page = await fetch(session.url!).then((r) => r.text());
    expect(page).toContain('>Subscribe</button>');
    expect(page).toContain('name="promotion_code"');

    const post = (form: Record<string, string>) =>
      fetch(session.url!, { method: 'POST', body: new URLSearchParams(form), redirect: 'manual' });
    const wrongCode = await post({ card_number: '4242 4242 4242 4242', promotion_code: 'NOPE' });
    expect(wrongCode.status).toBe(200);
    expect(await wrongCode.text()).toContain('This code is invalid.');
    const declined = await post({ card_number: '4000 0000 0000 0002' });
    expect(await declined.text()).toContain('Your card was declined.');
    expect((await stripe.checkout.sessions.retrieve(session.id)).status).toBe('open');

    const paid = await post({ card_number: '4242 4242 4242 4242', promotion_code: fake.promotionCode.toLowerCase() });
    expect(paid.status).toBe(303);
    expect(paid.headers.get('location')).toBe(`http://plink.test/checkout/success?session_id=${session.id}`);
    await fake.settled();

    const done = await stripe.checkout.sessions.retrieve(session.id, { expand: ['subscription.latest_invoice'] });
    expect(done).toMatchObject({ status: 'complete', payment_status: 'paid', amount_total: 500 });
    const sub = done.subscription as Stripe.Subscription;
    expect(sub.status).toBe('active');
    expect((sub.latest_invoice as Stripe.Invoice).amount_paid).toBe(500);
    expect((await stripe.customers.retrieve(done.customer as string)) as Stripe.Customer).toMatchObject({ email: 'cy@example.com' });
    expect(receiver.types()).toEqual(['customer.created', 'customer.subscription.created', 'invoice.paid', 'checkout.session.completed']);

    const again = await fetch(session.url!);
    expect(again.status).toBe(410);
    expect(await again.text()).toContain('already complete');
  });

  it('answers errors in the shapes the SDK turns into its error classes', async () => {
    const wrongKey = await caught(sdk(fake, 'sk_test_wrong_key_1234').customers.create({ email: 'x@example.com' }));
    expect(wrongKey).toBeInstanceOf(Stripe.errors.StripeAuthenticationError);
    expect(wrongKey.statusCode).toBe(401);
    expect(wrongKey.message).toContain('Invalid API Key provided');
    const noKey = await fetch(`${fake.url}/v1/customers`);
    expect(noKey.status).toBe(401);
    expect(await noKey.json()).toEqual({ error: { type: 'invalid_request_error', message: expect.stringContaining('You did not provide an API key') } });

    const missing = await caught(stripe.subscriptions.retrieve('sub_doesnotexist'));
    expect(missing).toBeInstanceOf(Stripe.errors.StripeInvalidRequestError);
    expect(missing).toMatchObject({ statusCode: 404, code: 'resource_missing', param: 'id', message: "No such subscription: 'sub_doesnotexist'" });

    const noSuccessUrl = await caught(stripe.checkout.sessions.create({ mode: 'subscription', line_items: [{ price: fake.priceId, quantity: 1 }] }));
    expect(noSuccessUrl).toBeInstanceOf(Stripe.errors.StripeInvalidRequestError);
    expect(noSuccessUrl).toMatchObject({ statusCode: 400, code: 'parameter_missing', param: 'success_url' });

    const unknownPrice = await caught(
      stripe.checkout.sessions.create({ mode: 'subscription', line_items: [{ price: 'price_nope', quantity: 1 }], success_url: 'http://plink.test/ok' }),
    );
    expect(unknownPrice).toMatchObject({ statusCode: 400, code: 'resource_missing', param: 'line_items[0][price]' });

    const badTrial = await caught(
      stripe.checkout.sessions.create({
        mode: 'subscription',
        line_items: [{ price: fake.priceId, quantity: 1 }],
        success_url: 'http://plink.test/ok',
        subscription_data: { trial_period_days: 0 },
      }),
    );
    expect(badTrial).toMatchObject({ statusCode: 400, param: 'subscription_data[trial_period_days]' });

    const unknownParam = await caught(stripe.customers.create({ emial: 'typo@example.com' } as Stripe.CustomerCreateParams));
    expect(unknownParam).toMatchObject({ statusCode: 400, code: 'parameter_unknown', param: 'emial' });
    const notHere = await caught(
      stripe.checkout.sessions.create({
        mode: 'subscription',
        line_items: [{ price: fake.priceId, quantity: 1 }],
        success_url: 'http://plink.test/ok',
        subscription_data: { trial_end: 1_900_000_000 },
      }),
    );
    expect(notHere).toMatchObject({ statusCode: 400, code: 'parameter_unknown', param: 'subscription_data[trial_end]' });
    expect(notHere.message).toContain('this test server does not implement');
    // None of the refused calls created anything.
    expect(fake.events).toEqual([]);
    expect((await stripe.customers.list()).data).toEqual([]);
  });

  it('honours Idempotency-Key: the same answer for the same parameters, an idempotency error for others', async () => {
    const first = await stripe.customers.create({ email: 'dee@example.com' }, { idempotencyKey: 'signup-7' });
    const replay = await stripe.customers.create({ email: 'dee@example.com' }, { idempotencyKey: 'signup-7' });
    expect(replay.id).toBe(first.id);
    expect(replay.lastResponse.headers['idempotent-replayed']).toBe('true');
    expect((await stripe.customers.list()).data).toHaveLength(1);

    const conflict = await caught(stripe.customers.create({ email: 'eve@example.com' }, { idempotencyKey: 'signup-7' }));
    expect(conflict).toBeInstanceOf(Stripe.errors.StripeIdempotencyError);
    expect(conflict.statusCode).toBe(400);

    // A parameter error is not kept: the key can be used again with good parameters.
    await caught(stripe.customers.create({ email: 'not-an-address' }, { idempotencyKey: 'signup-8' }));
    const fixed = await stripe.customers.create({ email: 'fay@example.com' }, { idempotencyKey: 'signup-8' });
    expect(fixed.email).toBe('fay@example.com');
  });

  it('holds deliveries for the test to release in any order, duplicate, or post itself', async () => {
    fake.setDeliveryMode('hold');
    const customer = await stripe.customers.create({ email: 'gil@example.com' });
    const session = await trialCheckout(stripe, fake, customer.id);
    await fake.completeCheckout(session.id, { withCard: false });
    expect(receiver.events).toEqual([]);
    const held = fake.heldEvents().map((e) => e.type);
    expect(held).toEqual(['customer.created', 'customer.subscription.created', 'invoice.paid', 'checkout.session.completed']);

    const completed = fake.heldEvents().find((e) => e.type === 'checkout.session.completed')!;
    await fake.deliver(completed.id);
    await fake.redeliver(completed.id);
    expect(receiver.types()).toEqual(['checkout.session.completed', 'checkout.session.completed']);
    expect(receiver.events[0].id).toBe(receiver.events[1].id);
    expect(fake.deliveries.map((d) => d.attempt)).toEqual([1, 2]);

    const created = fake.heldEvents().find((e) => e.type === 'customer.subscription.created')!;
    const { body, headers } = fake.signedRequest(created.id);
    const own = await fetch(receiver.url, { method: 'POST', body, headers });
    expect(own.status).toBe(200);
    expect(receiver.events.at(-1)!.id).toBe(created.id);

    // A signature made with another secret is refused by constructEvent.
    const forged = await fetch(receiver.url, { method: 'POST', body, headers: { ...headers, 'stripe-signature': headers['stripe-signature'].replace(/v1=[0-9a-f]{4}/, 'v1=0000') } });
    expect(forged.status).toBe(400);
    expect(receiver.rejected[0]).toContain('No signatures found matching the expected signature');

    await fake.deliverHeld();
    expect(fake.heldEvents()).toEqual([]);
    expect(receiver.types().slice(-3)).toEqual(['customer.created', 'customer.subscription.created', 'invoice.paid']);
  });

  it('records failed deliveries and sends them again only when asked', async () => {
    receiver.answer = 500;
    const customer = await stripe.customers.create({ email: 'hal@example.com' });
    await fake.settled();
    expect(fake.deliveries).toMatchObject([{ eventId: fake.events[0].id, ok: false, status: 500 }]);

    await receiver.stop();
    const session = await trialCheckout(stripe, fake, customer.id);
    await fake.completeCheckout(session.id, { withCard: false });
    const unreachable = fake.deliveries.at(-1)!;
    expect(unreachable).toMatchObject({ ok: false, status: null, error: 'ECONNREFUSED' });
    expect(fake.deliveries).toHaveLength(4);

    await receiver.start();
    receiver.answer = 200;
    fake.setWebhookUrl(receiver.url);
    const retried = await fake.redeliverFailed();
    expect(retried.map((d) => [d.ok, d.attempt])).toEqual([
      [true, 2],
      [true, 2],
      [true, 2],
      [true, 2],
    ]);
    expect(receiver.types()).toEqual(['customer.created', 'customer.subscription.created', 'invoice.paid', 'checkout.session.completed']);
    expect((await stripe.events.retrieve(fake.events[0].id)).pending_webhooks).toBe(0);
    expect(await fake.redeliverFailed()).toEqual([]);
  });

  it('fails a renewal on demand (past_due, invoice.payment_failed) and recovers when the invoice is paid', async () => {
    const customer = await stripe.customers.create({ email: 'ida@example.com' });
    const session = await stripe.checkout.sessions.create({
      mode: 'subscription',
      customer: customer.id,
      line_items: [{ price: fake.priceId, quantity: 1 }],
      success_url: 'http://plink.test/ok',
    });
    await fake.completeCheckout(session.id);
    const subId = (await stripe.checkout.sessions.retrieve(session.id)).subscription as string;
    const sub = await stripe.subscriptions.retrieve(subId);
    expect(sub.status).toBe('active');

    await fake.failNextPayment(subId);
    await fake.advanceTo(sub.items.data[0].current_period_end);
    const pastDue = await stripe.subscriptions.retrieve(subId, { expand: ['latest_invoice'] });
    expect(pastDue.status).toBe('past_due');
    expect((pastDue.latest_invoice as Stripe.Invoice).status).toBe('open');
    expect(receiver.types().slice(-2)).toEqual(['customer.subscription.updated', 'invoice.payment_failed']);

    await fake.payInvoice(subId);
    expect((await stripe.subscriptions.retrieve(subId)).status).toBe('active');
    expect(receiver.types().slice(-2)).toEqual(['invoice.paid', 'customer.subscription.updated']);

    await fake.setStatus(subId, 'paused');
    expect(receiver.types().slice(-2)).toEqual(['customer.subscription.updated', 'customer.subscription.paused']);
    const resumed = await stripe.subscriptions.resume(subId);
    expect(resumed.status).toBe('active');

    const canceled = await stripe.subscriptions.cancel(subId);
    expect(canceled).toMatchObject({ status: 'canceled', ended_at: expect.any(Number) });
    await fake.settled();
    expect(receiver.types().at(-1)).toBe('customer.subscription.deleted');
    const again = await caught(stripe.subscriptions.cancel(subId));
    expect(again).toMatchObject({ statusCode: 404, code: 'resource_missing', message: `No such subscription: '${subId}'` });
    const refused = await caught(stripe.subscriptions.update(subId, { cancel_at_period_end: true }));
    expect(refused).toMatchObject({ statusCode: 400, message: 'A canceled subscription can only update its cancellation_details and metadata.' });

    const events = await stripe.events.list({ type: 'customer.subscription.*', limit: 3 });
    expect(events.data.map((e) => e.type)).toEqual(['customer.subscription.deleted', 'customer.subscription.resumed', 'customer.subscription.updated']);
    expect(events.has_more).toBe(true);
  });

  it('opens a billing portal whose page links back to return_url', async () => {
    const customer = await stripe.customers.create({ email: 'jo@example.com' });
    const portal = await stripe.billingPortal.sessions.create({ customer: customer.id, return_url: 'http://plink.test/settings' });
    expect(portal).toMatchObject({ object: 'billing_portal.session', customer: customer.id, return_url: 'http://plink.test/settings' });
    expect(portal.id).toMatch(/^bps_/);
    const html = await fetch(portal.url).then((r) => r.text());
    expect(html).toContain('href="http://plink.test/settings"');
    const missing = await caught(stripe.billingPortal.sessions.create({ customer: 'cus_nope' }));
    expect(missing).toMatchObject({ statusCode: 400, code: 'resource_missing', param: 'customer' });
  });

  it('ends a trial canceled during the trial at the trial end, and expires a checkout left open for a day', async () => {
    const customer = await stripe.customers.create({ email: 'max@example.com' });
    const session = await trialCheckout(stripe, fake, customer.id);
    await fake.completeCheckout(session.id, { withCard: true });
    await expect(fake.completeCheckout(session.id)).rejects.toThrow('This Checkout Session is already complete.');
    const subId = (await stripe.checkout.sessions.retrieve(session.id)).subscription as string;
    const canceling = await stripe.subscriptions.update(subId, { cancel_at_period_end: true });
    expect(canceling).toMatchObject({ status: 'trialing', cancel_at: canceling.trial_end });

    const abandoned = await trialCheckout(stripe, fake, customer.id);
    await fake.advanceTime(1 * 86_400_000 + 1000);
    expect((await stripe.checkout.sessions.retrieve(abandoned.id)).status).toBe('expired');
    expect(receiver.types()).toContain('checkout.session.expired');
    const page = await fetch(abandoned.url!);
    expect(page.status).toBe(410);
    expect(await page.text()).toContain('This checkout session has expired.');

    await fake.advanceTime(13 * 86_400_000);
    const ended = await stripe.subscriptions.retrieve(subId);
    expect(ended).toMatchObject({ status: 'canceled', ended_at: canceling.trial_end });
    // No charge was made for a trial that was canceled.
    expect(fake.eventsOfType('invoice.paid').map((e) => e.data.object.amount_paid)).toEqual([0]);
  });

  it('asks for the e-mail on the checkout page when the session has no customer', async () => {
    const session = await stripe.checkout.sessions.create({
      mode: 'subscription',
      line_items: [{ price: fake.priceId, quantity: 1 }],
      success_url: 'http://plink.test/ok?id={CHECKOUT_SESSION_ID}',
      subscription_data: { trial_period_days: 14 },
    });
    const page = await fetch(session.url!).then((r) => r.text());
    expect(page).toContain('name="email"');
    // payment_method_collection defaults to always: the trial still takes a card.
    expect(page).toMatch(/<input id="card_number"[^>]* required/);
    const done = await fetch(session.url!, { method: 'POST', body: new URLSearchParams({ email: 'ned@example.com', card_number: '4242424242424242' }), redirect: 'manual' });
    expect(done.status).toBe(303);
    const sub = (await stripe.checkout.sessions.retrieve(session.id, { expand: ['subscription'] })).subscription as Stripe.Subscription;
    expect(sub.status).toBe('trialing');
    expect(sub.default_payment_method).toMatch(/^pm_/);
    expect(((await stripe.customers.retrieve(sub.customer as string)) as Stripe.Customer).email).toBe('ned@example.com');
  });

  it('can fail calls or be unreachable, then comes back', async () => {
    fake.failRequests(1);
    const failed = await caught(stripe.customers.create({ email: 'kim@example.com' }));
    expect(failed).toBeInstanceOf(Stripe.errors.StripeAPIError);
    expect(failed.statusCode).toBe(500);

    await fake.goDown();
    const down = await caught(sdk(fake).customers.list());
    expect(down).toBeInstanceOf(Stripe.errors.StripeConnectionError);

    await fake.comeBack();
    const customer = await sdk(fake).customers.create({ email: 'kim@example.com' });
    expect(customer.email).toBe('kim@example.com');
  });

  it('holds back the answer to one call, as it was when the call arrived, until released', async () => {
    const customer = await stripe.customers.create({ email: 'slow@example.com' });
    const held = fake.holdNextAnswer('GET', `/v1/customers/${customer.id}`);
    let answered: Stripe.Customer | null = null;
    const late = stripe.customers.retrieve(customer.id).then((c) => (answered = c as Stripe.Customer));
    await held.reached;
    // Changed after the held call arrived; other calls are answered at once meanwhile.
    await stripe.customers.update(customer.id, { email: 'changed@example.com' });
    expect(((await stripe.customers.retrieve(customer.id)) as Stripe.Customer).email).toBe('changed@example.com');
    await new Promise((r) => setTimeout(r, 50));
    expect(answered).toBeNull();
    held.release();
    await late;
    expect(answered!.email).toBe('slow@example.com');
  });
});

describe('FakeStripe customers and metadata', () => {
  it('merges metadata like Stripe: a key set, a key removed with an empty value', async () => {
    const fake = await FakeStripe.start();
    try {
      const stripe = sdk(fake);
      const c = await stripe.customers.create({ email: 'lu@example.com', metadata: { a: '1', b: '2' } });
      const updated = await stripe.customers.update(c.id, { email: 'lu2@example.com', metadata: { b: '', c: '3' } });
      expect(updated).toMatchObject({ email: 'lu2@example.com', metadata: { a: '1', c: '3' } });
      expect(fake.eventsOfType('customer.updated')[0].data.previous_attributes).toEqual({ email: 'lu@example.com', metadata: { a: '1', b: '2' } });
      const price = await stripe.prices.retrieve(fake.priceId);
      expect(price).toMatchObject({ unit_amount: 1000, currency: 'usd', recurring: { interval: 'month', interval_count: 1 }, type: 'recurring' });
      const byKey = await stripe.prices.list({ lookup_keys: ['plink_pro_monthly'] });
      expect(byKey.data.map((p: StripeObject) => p.id)).toEqual([fake.priceId]);
    } finally {
      await fake.close();
    }
  });
});

describe('FakeStripe control calls over HTTP (the standalone server)', () => {
  it('advances time and completes a checkout for a test in another process, with the secret key', async () => {
    const fake = await FakeStripe.start({ controlApi: true });
    try {
      const stripe = sdk(fake);
      const control = (path: string, key = fake.secretKey) => fetch(`${fake.url}/_control/${path}`, { method: 'POST', headers: { authorization: `Bearer ${key}` } });
      expect((await control('advance-time?ms=1000', 'sk_test_wrong')).status).toBe(401);

      const customer = await stripe.customers.create({ email: 'oz@example.com' });
      const session = await trialCheckout(stripe, fake, customer.id);
      const completed = await control(`complete-checkout?session=${session.id}&with_card=false`);
      expect(completed.status).toBe(200);
      const subId = ((await completed.json()) as StripeObject).subscription;
      expect((await control('advance-time?ms=1209601000')).status).toBe(200);
      expect((await stripe.subscriptions.retrieve(subId)).status).toBe('canceled');
      const unknown = await control('pay-invoice?id=in_nope');
      expect(unknown.status).toBe(400);
      expect(((await unknown.json()) as StripeObject).error.message).toContain("No such invoice: 'in_nope'");
    } finally {
      await fake.close();
    }
  });
});
