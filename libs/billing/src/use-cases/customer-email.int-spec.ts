import Stripe from 'stripe';
import { eventually, type FakeStripe } from '@plink/testing';
import { BillingTestApp, type Creator } from '../testing/billing-test-app';
import { CustomerEmailService } from './customer-email.service';

/**
 * A creator who changes their e-mail address in Settings → Account keeps getting Stripe's receipts and
 * invoices: identity's 'user.changed' reaches billing's worker, which gives the new address to the creator's
 * Stripe customer (real `stripe` SDK, local Stripe-compatible server).
 */
describe("a user's new e-mail address reaches their Stripe customer", () => {
  let t: BillingTestApp;
  let stripe: FakeStripe;

  beforeAll(async () => {
    t = await BillingTestApp.start({ stripe: {} });
    stripe = t.stripe!;
  });

  afterAll(async () => {
    await t?.close();
  });

  /** A creator who subscribed (so billing has their Stripe customer); answers the creator and the customer id. */
  async function subscribed(): Promise<{ c: Creator; customerId: string }> {
    const c = await t.creator();
    const { sessionId } = await t.startCheckout(c);
    await stripe.completeCheckout(sessionId);
    expect((await c.client.post('/api/verify-checkout', { sessionId })).body).toMatchObject({ success: true, isPremium: true });
    const customerId = (await t.account(c.id))!.stripe_customer_id as string;
    expect(stripe.customer(customerId).email).toBe(c.email);
    return { c, customerId };
  }

  const emailOf = (customerId: string) => stripe.customer(customerId).email as string;

  it('updates the customer when the user changes their address, and ignores a change older than one applied', async () => {
    const { c, customerId } = await subscribed();

    await t.userChanged({ v: 1, userId: c.id, username: c.username, email: 'new.address@example.com', version: 2 });
    // Stripe is called before the change is recorded (in the same transaction): wait for the record.
    await eventually(async () => (await t.account(c.id))!.profile_version === 2, 15_000);
    expect(emailOf(customerId)).toBe('new.address@example.com');

    // The first change, run late (a retry): the newer address stays.
    const customerEmail = t.worker!.get(CustomerEmailService);
    await expect(customerEmail.execute({ v: 1, userId: c.id, username: c.username, email: c.email, version: 1 })).resolves.toBe('stale');
    expect(emailOf(customerId)).toBe('new.address@example.com');
  });

  it('keeps the change until Stripe answers again, then applies it', async () => {
    const { c, customerId } = await subscribed();
    const updates = () => stripe.requestsTo('POST', `/v1/customers/${customerId}`).length;
    const before = updates();

    // Every try of the first attempt fails (the SDK's own retries included): the job is retried later.
    stripe.failRequests(3, 503);
    await t.userChanged({ v: 1, userId: c.id, username: c.username, email: 'after.outage@example.com', version: 1 });
    await eventually(async () => emailOf(customerId) === 'after.outage@example.com', 60_000);
    expect(updates() - before).toBeGreaterThanOrEqual(2);
  });

  it('records the change of a user without a Stripe customer, whose first checkout then uses the address of that time', async () => {
    const c = await t.creator();
    const customerEmail = t.worker!.get(CustomerEmailService);
    await expect(customerEmail.execute({ v: 1, userId: c.id, username: c.username, email: 'nobody.yet@example.com', version: 1 })).resolves.toBe('no-customer');
    expect(await t.account(c.id)).toBeUndefined();
  });

  it("records a change whose customer was deleted in Stripe's dashboard without retrying it", async () => {
    const { c, customerId } = await subscribed();
    await new Stripe(stripe.secretKey, { host: new URL(stripe.url).hostname, port: new URL(stripe.url).port, protocol: 'http' }).customers.del(customerId);
    const customerEmail = t.worker!.get(CustomerEmailService);
    await expect(customerEmail.execute({ v: 1, userId: c.id, username: c.username, email: 'gone@example.com', version: 3 })).resolves.toBe('no-customer');
    expect((await t.account(c.id))!.profile_version).toBe(3);
  });
});
