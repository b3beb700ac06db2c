import { Writable } from 'node:stream';
import Stripe from 'stripe';
import { initLogger } from '@plink/observability';
import type { FakeStripe } from '@plink/testing';
import { BillingTestApp, type Creator } from '../testing/billing-test-app';

/**
 * One free trial per person and one subscription per customer: billing's HTTP side and worker (real
 * PostgreSQL and Redis) and the real `stripe` SDK against FakeStripe, whose webhooks reach billing signed as
 * Stripe signs them. A person is known by their normalised e-mail and their card.
 */
describe('trials and checkouts on Stripe', () => {
  let t: BillingTestApp;
  let stripe: FakeStripe;
  let sdk: Stripe;
  const logLines: Record<string, unknown>[] = [];

  beforeAll(async () => {
    initLogger({
      level: 'info',
      pretty: false,
      destination: new Writable({
        write(chunk, _encoding, done) {
          for (const line of String(chunk).split('\n').filter(Boolean)) logLines.push(JSON.parse(line));
          done();
        },
      }),
    });
    t = await BillingTestApp.start({ overrides: { LOG_LEVEL: 'info' }, stripe: {} });
    stripe = t.stripe!;
    sdk = new Stripe(stripe.secretKey, { host: '127.0.0.1', port: stripe.port, protocol: 'http' });
  });

  afterAll(async () => {
    await t?.close();
  });

  /** A verified creator with a session. */
  const creator = (email: string): Promise<Creator> => t.creator({ email });

  /** Polls until `check` holds; says what did not happen when it never does. */
  async function eventually(check: () => Promise<boolean>, what: string, timeoutMs = 15_000): Promise<void> {
    const started = Date.now();
    while (!(await check())) {
      if (Date.now() - started > timeoutMs) throw new Error(`not reached within ${timeoutMs} ms: ${what}`);
      await new Promise((r) => setTimeout(r, 50));
    }
  }

  const plan = async (c: Creator) => (await c.client.get('/api/subscription')).body as { trialAvailable: boolean; status: string; isPremium: boolean; cancelAtPeriodEnd: boolean };
  const account = (c: Creator) => t.account(c.id);
  const sessionsOf = (c: Creator) => stripe.requestsTo('POST', '/v1/checkout/sessions').filter((r) => r.params.client_reference_id === String(c.id) && r.status === 200);
  const logged = (msg: string, userId: number) => logLines.filter((line) => line.msg === msg && line.userId === userId);

  const startCheckout = (c: Creator) => t.startCheckout(c);

  /** Checkout finished on Stripe's page (with the card given, if any), then verified by the return page. */
  async function subscribe(c: Creator, options: { cardNumber?: string; withCard?: boolean } = {}): Promise<string> {
    const { sessionId } = await startCheckout(c);
    await stripe.completeCheckout(sessionId, options);
    const verified = await c.client.post('/api/verify-checkout', { sessionId });
    expect(verified.body).toEqual({ success: true, isPremium: true, hasActiveSubscription: true });
    return stripe.checkoutSession(sessionId).subscription as string;
  }

  it('gives a second account of the same person (Ann.Lee+x@gmail.com, then annlee@gmail.com) no trial: the paid checkout and wording', async () => {
    const first = await creator('Ann.Lee+x@gmail.com');
    const second = await creator('annlee@gmail.com');
    expect((await plan(first)).trialAvailable).toBe(true);
    // Before anyone had the trial, the second account opened a checkout with it (and left it open).
    const early = await startCheckout(second);
    expect(sessionsOf(second).at(-1)!.params.subscription_data).toMatchObject({ trial_period_days: '14' });
    await subscribe(first);
    expect(await plan(first)).toMatchObject({ status: 'trialing', isPremium: true, trialAvailable: false });

    expect(await plan(second)).toMatchObject({ isPremium: false, trialAvailable: false });
    const { sessionId } = await startCheckout(second);
    // The open session with the trial is not answered again: it is expired, and the new one has no trial.
    expect(sessionId).not.toBe(early.sessionId);
    expect(stripe.checkoutSession(early.sessionId).status).toBe('expired');
    expect(sessionsOf(second).at(-1)!.params.subscription_data).toEqual({ metadata: { userId: String(second.id) } });
    expect(stripe.checkoutSession(sessionId).subscription_data).toMatchObject({ trial_period_days: undefined });
    // Finished, it is a paid subscription at once.
    await stripe.completeCheckout(sessionId, { withCard: true });
    expect((await second.client.post('/api/verify-checkout', { sessionId })).body).toEqual({ success: true, isPremium: true, hasActiveSubscription: true });
    expect(await plan(second)).toMatchObject({ status: 'active', isPremium: true });

    // Gmail's other spellings are the same person; another mailbox is not.
    expect((await plan(await creator('A.N.N.Lee@GoogleMail.com'))).trialAvailable).toBe(false);
    expect((await plan(await creator('annlee+promo@gmail.com'))).trialAvailable).toBe(false);
    expect((await plan(await creator('ann.lee@example.com'))).trialAvailable).toBe(true);
    expect((await plan(await creator('annlee2@gmail.com'))).trialAvailable).toBe(true);
  });

  it('refuses the trial to a new account of an address whose account took one and was deleted, keeping only a keyed hash', async () => {
    const gone = await creator('Del.Me+trial@gmail.com');
    await subscribe(gone);
    expect((await plan(gone)).status).toBe('trialing');
    const personKey = (await t.db.query('select person_key from billing.trials_taken where user_id = $1', [gone.id])).rows[0].person_key as string;

    await t.userDeleted(gone.id);
    await eventually(async () => (await t.db.query('select 1 from billing.trials_taken where user_id = $1', [gone.id])).rowCount === 0, 'the trial rows are removed');
    expect(await account(gone)).toBeUndefined();
    // What is kept: one 64-hex keyed hash, not the person key (a plain SHA-256 of the address), and no other column.
    const kept = await t.db.query('select * from billing.trials_remembered');
    expect(kept.fields.map((f) => f.name)).toEqual(['person_hash']);
    const hashes = kept.rows.map((r) => r.person_hash as string);
    expect(hashes).toHaveLength(1);
    expect(hashes[0]).toMatch(/^[0-9a-f]{64}$/);
    expect(hashes[0]).not.toBe(personKey);

    // The same mailbox, spelt another way, on a new account: no trial offered, and the checkout has none.
    const again = await creator('delme@gmail.com');
    expect((await plan(again)).trialAvailable).toBe(false);
    await startCheckout(again);
    expect(sessionsOf(again).at(-1)!.params.subscription_data).toEqual({ metadata: { userId: String(again.id) } });
    // Another address is not touched.
    expect((await plan(await creator('del.me.not@example.com'))).trialAvailable).toBe(true);
  });

  it('ends at once the trial of another account that pays with a card that already had a trial, and logs it', async () => {
    const card = '4000 0025 0000 3155';
    const first = await creator('card.owner@example.com');
    await subscribe(first, { cardNumber: card });
    expect((await plan(first)).status).toBe('trialing');

    // Nothing links this address to the first: the trial is offered, and the checkout has it.
    const second = await creator('someone.else@example.org');
    expect((await plan(second)).trialAvailable).toBe(true);
    const subscriptionId = await subscribe(second, { cardNumber: card });
    expect(sessionsOf(second).at(-1)!.params.subscription_data).toMatchObject({ trial_period_days: '14' });
    // Stripe reported a trial on a card that had one: the trial ended, the card paid the first month.
    const subscription = stripe.subscription(subscriptionId);
    expect(subscription.status).toBe('active');
    expect(Math.abs((subscription.trial_end as number) - stripe.now())).toBeLessThan(60);
    expect(stripe.invoice(subscription.latest_invoice as string)).toMatchObject({ status: 'paid', amount_paid: 1000 });
    await eventually(async () => (await account(second))?.status === 'active', 'the plan is the paid one');
    expect(await plan(second)).toMatchObject({ status: 'active', isPremium: true, trialAvailable: false });
    // Logged by whichever ended the trial: the return page's check, or the billing worker's (then maybe later).
    await eventually(async () => logged('trial of a person who already had one: ended now', second.id).length > 0, 'the ended trial is logged');
    expect(logged('trial of a person who already had one: ended now', second.id)[0]).toMatchObject({ level: 40, subscriptionId, seenBefore: 'card' });
    // The first account's trial is not touched.
    expect((await plan(first)).status).toBe('trialing');
    expect(logged('trial of a person who already had one: ended now', first.id)).toEqual([]);
  });

  it('ends the trial of a second account of the same person that finishes a trial checkout opened before the first trial began', async () => {
    const first = await creator('Bo.Ray@googlemail.com');
    const second = await creator('boray+2@gmail.com');
    // Both opened a checkout with the trial while neither had it.
    const late = await startCheckout(second);
    expect(sessionsOf(second).at(-1)!.params.subscription_data).toMatchObject({ trial_period_days: '14' });
    await subscribe(first);
    // The second finishes its page without a card: the trial is ended at once, and without a card the
    // subscription ends with it (what the checkout's trial settings say).
    await stripe.completeCheckout(late.sessionId, { withCard: false });
    const subscriptionId = stripe.checkoutSession(late.sessionId).subscription as string;
    expect((await second.client.post('/api/verify-checkout', { sessionId: late.sessionId })).body).toEqual({ success: false, isPremium: false, hasActiveSubscription: false });
    await eventually(async () => stripe.subscription(subscriptionId).status === 'canceled', 'the second trial is ended');
    await eventually(async () => (await account(second))?.status === 'canceled', 'the plan says so');
    expect(await plan(second)).toMatchObject({ isPremium: false, trialAvailable: false });
    await eventually(async () => logged('trial of a person who already had one: ended now', second.id).length > 0, 'the ended trial is logged');
    expect(logged('trial of a person who already had one: ended now', second.id)[0]).toMatchObject({ level: 40, subscriptionId, seenBefore: 'person' });
    expect(await plan(first)).toMatchObject({ status: 'trialing', isPremium: true });
  });

  it('answers two checkouts opened at once with one Checkout Session, so they make one subscription', async () => {
    const c = await creator('double.click@example.com');
    const [one, two] = await Promise.all([startCheckout(c), startCheckout(c)]);
    expect(two.url).toBe(one.url);
    const later = await startCheckout(c);
    expect(later.url).toBe(one.url);
    expect(sessionsOf(c)).toHaveLength(1);

    await stripe.completeCheckout(one.sessionId);
    expect((await c.client.post('/api/verify-checkout', { sessionId: one.sessionId })).body).toMatchObject({ success: true });
    const customer = (await account(c))!.stripe_customer_id as string;
    expect((await sdk.subscriptions.list({ customer, status: 'all' })).data).toHaveLength(1);
    // Already Pro: no other checkout at all.
    expect((await c.client.post('/api/create-subscription')).status).toBe(400);

    // A session that expired (or was finished) is not answered again: a new one is opened.
    const other = await creator('expired.session@example.com');
    const first = await startCheckout(other);
    await stripe.expireCheckout(first.sessionId);
    const fresh = await startCheckout(other);
    expect(fresh.sessionId).not.toBe(first.sessionId);
    expect(sessionsOf(other)).toHaveLength(2);
  });

  it('cancels every running subscription of the customer, and logs an error when there is more than one', async () => {
    const c = await creator('two.subscriptions@example.com');
    const firstId = await subscribe(c, { withCard: true });
    const customer = (await account(c))!.stripe_customer_id as string;
    // A second subscription of the same customer, as two checkouts finished at once used to make.
    const session = await sdk.checkout.sessions.create({
      mode: 'subscription',
      customer,
      client_reference_id: String(c.id),
      line_items: [{ price: stripe.priceId, quantity: 1 }],
      subscription_data: { metadata: { userId: String(c.id) } },
      success_url: 'http://plink.test/checkout/success?session_id={CHECKOUT_SESSION_ID}',
      cancel_url: 'http://plink.test/dashboard',
    });
    await stripe.completeCheckout(session.id, { withCard: true });
    const secondId = stripe.checkoutSession(session.id).subscription as string;
    await eventually(async () => logged('customer has more than one running subscription', c.id).length > 0, 'the sync logs both subscriptions');
    expect(logged('customer has more than one running subscription', c.id)[0]).toMatchObject({ level: 50, subscriptions: expect.arrayContaining([firstId, secondId]) });

    // One of them set to end (as the cancel before this change did): the plan says what the other does.
    await sdk.subscriptions.update(secondId, { cancel_at_period_end: true });
    await stripe.settled();
    expect((await c.client.post('/api/check-subscription-status')).status).toBe(200);
    expect(await plan(c)).toMatchObject({ isPremium: true, cancelAtPeriodEnd: false });

    const cancelled = await c.client.post('/api/cancel-subscription');
    expect(cancelled.status).toBe(200);
    expect(stripe.subscription(firstId).cancel_at_period_end).toBe(true);
    expect(stripe.subscription(secondId).cancel_at_period_end).toBe(true);
    const ends = [firstId, secondId].map((id) => (stripe.subscription(id).cancel_at as number) * 1000);
    expect(cancelled.body.endsAt).toBe(new Date(Math.max(...ends)).toISOString());
    expect(logged('customer has more than one running subscription: cancelling every one', c.id)[0]).toMatchObject({ level: 50 });
    expect(await plan(c)).toMatchObject({ isPremium: true, cancelAtPeriodEnd: true });
  });
});
