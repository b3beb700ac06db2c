import { BillingMessages, QueueName } from '@plink/contracts';
import { eventually } from '@plink/testing';
import { ExpireGrantsService } from '../use-cases/expire-grants.service';
import { BillingTestApp, type Creator } from '../testing/billing-test-app';

const COPIES = [QueueName.Identity, QueueName.Pages, QueueName.Leads];

/**
 * The Pro plan's foundation as an operator and billing's own calls see it: the operator's grant-pro /
 * revoke-pro (the command's own code), the plan billing publishes to every copy and the e-mails it asks
 * identity to send, the expiry of a grant given for some days, and the subscription calls of a server
 * without Stripe. What the plan does to pages, and the e-mails as sent, are tested across services in the gateway.
 */
describe('plans and billing', () => {
  let t: BillingTestApp;
  let n = 0;

  beforeAll(async () => {
    t = await BillingTestApp.start();
  });

  afterAll(async () => {
    await t?.close();
  });

  /** A verified creator, with a mixed-case address as people type them. */
  const creator = (): Promise<Creator> => {
    n += 1;
    return t.creator({ email: `Pro.${Date.now().toString(36)}${n}@Example.com` });
  };
  /** The newest plan billing published about the user to each copy (identity, pages, leads). */
  const copiesOf = (userId: number) => COPIES.map((queue) => t.planChanges(userId, queue).sort((a, b) => a.version - b.version).at(-1));

  it('grant-pro makes a user Pro, published to every copy, with a welcome e-mail; revoke-pro ends it', async () => {
    const user = await creator();
    const granted = await t.plink(['grant-pro', user.email.toLowerCase(), '--days', '30']);
    expect(granted.err).toBe('');
    expect(granted.code).toBe(0);
    const [, email, id, until] = /^Granted Pro to (\S+) \(user (\d+)\) until (\S+)\.$/.exec(granted.out) ?? [];
    expect({ email, id: Number(id) }).toEqual({ email: user.email.toLowerCase(), id: user.id });
    expect(Math.abs(new Date(until).getTime() - Date.now() - 30 * 86_400_000)).toBeLessThan(60_000);
    // The command returns once every copy has taken the change: not eventually.
    expect(copiesOf(user.id)).toEqual(COPIES.map(() => expect.objectContaining({ userId: user.id, isPremium: true, planStatus: 'active', version: 1 })));
    expect(await t.isPremium(user.id)).toBe(true);
    expect((await t.email(user.id, 'email.pro-started')).content).toEqual({ until });

    expect((await user.client.post('/api/check-subscription-status')).body).toEqual({ hasActiveSubscription: true, updated: false, isPremium: true });
    expect((await user.client.get('/api/subscription')).body).toMatchObject({
      isPremium: true,
      status: 'active',
      source: 'operator',
      cancelAtPeriodEnd: false,
      trialAvailable: true,
      paymentsConfigured: false,
      canManageBilling: false,
      downgradedAt: null,
      leadRemovalAt: null,
    });
    const cancel = await user.client.post('/api/cancel-subscription');
    expect(cancel.status).toBe(400);
    expect(cancel.body.message).toBe(BillingMessages.grantedByOperator);

    const revoked = await t.plink(['revoke-pro', user.email]);
    expect(revoked.code).toBe(0);
    expect(revoked.out).toBe(`Revoked Pro from ${user.email} (user ${user.id}).`);
    expect(copiesOf(user.id)).toEqual(COPIES.map(() => expect.objectContaining({ isPremium: false, planStatus: 'canceled', version: 2 })));
    expect(await t.isPremium(user.id)).toBe(false);
    expect((await t.email(user.id, 'email.pro-ended')).content).toEqual({});
    expect((await user.client.post('/api/check-subscription-status')).body).toEqual({ hasActiveSubscription: false, updated: false, isPremium: false });
    const downgraded = (await user.client.get('/api/subscription')).body;
    expect(downgraded).toMatchObject({ isPremium: false, status: 'canceled', source: 'operator' });
    // The leads of paused pages go 30 days after the downgrade.
    expect(Date.parse(downgraded.leadRemovalAt) - Date.parse(downgraded.downgradedAt)).toBe(30 * 24 * 60 * 60 * 1000);
    expect(Math.abs(Date.parse(downgraded.downgradedAt) - Date.now())).toBeLessThan(60_000);

    const again = await t.plink(['revoke-pro', user.email]);
    expect(again.code).toBe(0);
    expect(again.out).toBe(`${user.email} (user ${user.id}) is not Pro; nothing changed.`);
    expect(t.planChanges(user.id)).toHaveLength(2);
    expect(t.emails(user.id).map((m) => m.email)).toEqual(['email.pro-started', 'email.pro-ended']);
  });

  it('ends a grant given for some days when the scheduled job runs after its end, not before', async () => {
    const user = await creator();
    const granted = await t.plink(['grant-pro', user.email, '--days', '2']);
    expect(granted.code).toBe(0);
    expect(await t.isPremium(user.id)).toBe(true);
    const row = await t.db.query('select operator_expires_at from billing.accounts where user_id = $1', [user.id]);
    const expiresAt = new Date(row.rows[0].operator_expires_at);
    expect(Math.abs(expiresAt.getTime() - Date.now() - 2 * 86_400_000)).toBeLessThan(60_000);

    const expiry = t.worker!.get(ExpireGrantsService, { strict: false });
    expect(await expiry.execute(new Date(expiresAt.getTime() - 60_000))).toBe(0);
    expect(await t.isPremium(user.id)).toBe(true);
    expect(await expiry.execute(new Date(expiresAt.getTime() + 60_000))).toBe(1);
    await eventually(async () => !(await t.isPremium(user.id)));
    expect(copiesOf(user.id)).toEqual(COPIES.map(() => expect.objectContaining({ isPremium: false, planStatus: 'canceled' })));
    await t.email(user.id, 'email.pro-ended');
    expect(await expiry.execute(new Date(expiresAt.getTime() + 120_000))).toBe(0);
    const account = await t.db.query('select status, is_premium from billing.accounts where user_id = $1', [user.id]);
    expect(account.rows[0]).toEqual({ status: 'canceled', is_premium: false });
  });

  it('keeps a renewed grant when the expiry job meets it, and a grant without --days has no end', async () => {
    const user = await creator();
    expect((await t.plink(['grant-pro', user.email, '--days', '1'])).code).toBe(0);
    const endless = await t.plink(['grant-pro', user.email]);
    expect(endless.out).toBe(`${user.email} (user ${user.id}) was already Pro; the grant now runs without end.`);
    const expiry = t.worker!.get(ExpireGrantsService, { strict: false });
    expect(await expiry.execute(new Date(Date.now() + 400 * 86_400_000))).toBe(0);
    expect(await t.isPremium(user.id)).toBe(true);
    expect(t.latestPlan(user.id)).toMatchObject({ isPremium: true });
  });

  it('refuses unknown e-mail addresses and bad arguments with a clear message and a non-zero exit', async () => {
    const before = await t.db.query('select count(*)::int as n from platform.outbox');
    const unknown = await t.plink(['grant-pro', 'nobody@example.com']);
    expect(unknown.code).toBe(1);
    expect(unknown.err).toBe('plink: No user has the e-mail address nobody@example.com.');
    expect(unknown.out).toBe('');
    for (const args of [[], ['grant-pro'], ['grant-pro', 'a@b.example', '--days', '0'], ['grant-pro', 'a@b.example', '--days', 'ten'], ['grant-pro', 'a@b.example', '--weeks', '2'], ['revoke-pro', 'a@b.example', 'c@d.example'], ['promote', 'a@b.example'], ['grant-pro', 'not-an-address']]) {
      const result = await t.plink(args);
      expect({ args, code: result.code }).toEqual({ args, code: 2 });
      expect(result.err).toMatch(/^plink: .+\nRun "npm run plink -- help" for the commands\.$/);
    }
    expect((await t.plink(['grant-pro', 'a@b.example', '--days', '0'])).err).toContain('--days must be a whole number of days from 1 to 3650 (got "0")');
    const help = await t.plink(['help']);
    expect(help.code).toBe(0);
    expect(help.out).toContain('grant-pro <email> [--days N]');
    expect(help.out).toContain('revoke-pro <email>');
    const after = await t.db.query('select count(*)::int as n from platform.outbox');
    expect(after.rows[0].n).toBe(before.rows[0].n);
  });

  it('records the plan change with its jobs in one transaction: with Redis away from the command, it returns once a relay has applied it', async () => {
    const user = await creator();
    // The command alone cannot reach Redis; the running billing app (another process, in effect) relays its jobs.
    const result = await t.plink(['grant-pro', user.email], { REDIS_URL: 'redis://127.0.0.1:1' });
    expect(result.code).toBe(0);
    expect(result.out).toBe(`Granted Pro to ${user.email} (user ${user.id}) without end.`);
    expect(result.err).toBe('');
    const account = await t.db.query('select is_premium, source from billing.accounts where user_id = $1', [user.id]);
    expect(account.rows[0]).toEqual({ is_premium: true, source: 'operator' });
    expect(await t.isPremium(user.id)).toBe(true);
    expect((await t.email(user.id, 'email.pro-started')).content).toEqual({ until: null });
  }, 60_000);

  describe('subscription calls without Stripe', () => {
    it('answers 503 "Payments are not configured on this server." where a payment would start', async () => {
      const user = await creator();
      for (const [path, body] of [
        ['/api/create-subscription', undefined],
        ['/api/verify-checkout', { sessionId: 'cs_test_123' }],
        ['/api/cancel-subscription', undefined],
        ['/api/resume-subscription', undefined],
        ['/api/billing-portal', undefined],
      ] as const) {
        const answer = await user.client.post(path, body);
        expect({ path, status: answer.status, body: answer.body }).toEqual({ path, status: 503, body: { message: 'Payments are not configured on this server.' } });
      }
      const bad = await user.client.post('/api/verify-checkout', {});
      expect(bad.status).toBe(400);
      expect(bad.body.message).toEqual(expect.any(String));
    });

    it('refuses a Stripe webhook (400) and stores nothing: there is no signing secret to check it with', async () => {
      const body = JSON.stringify({ id: 'evt_unconfigured', object: 'event', type: 'customer.subscription.created', created: 1, data: { object: {} } });
      const answer = await fetch(`${t.origin}/api/webhooks/stripe`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'stripe-signature': `t=${Math.floor(Date.now() / 1000)},v1=${'0'.repeat(64)}` },
        body,
      });
      expect(answer.status).toBe(400);
      expect(await answer.json()).toEqual({ message: BillingMessages.webhookSignatureInvalid });
      expect((await t.db.query('select count(*)::int as n from billing.stripe_events')).rows[0].n).toBe(0);
    });

    it("answers the caller's own stored plan to the status and reset calls", async () => {
      const free = await creator();
      for (const path of ['/api/check-subscription-status', '/api/admin/reset-subscription-status']) {
        const answer = await free.client.post(path);
        expect({ path, status: answer.status, body: answer.body }).toEqual({ path, status: 200, body: { hasActiveSubscription: false, updated: false, isPremium: false } });
      }
      const pro = await creator();
      expect((await t.plink(['grant-pro', pro.email])).code).toBe(0);
      expect((await pro.client.post('/api/admin/reset-subscription-status')).body).toEqual({ hasActiveSubscription: true, updated: false, isPremium: true });
      // Another user's reset touches only their own plan.
      expect((await free.client.post('/api/admin/reset-subscription-status')).body.isPremium).toBe(false);
      expect((await pro.client.post('/api/check-subscription-status')).body.isPremium).toBe(true);
    });

    it('ends a grant past its end at the status check, before the expiry job gets to it', async () => {
      const user = await creator();
      expect((await t.plink(['grant-pro', user.email, '--days', '1'], {}, new Date(Date.now() - 2 * 86_400_000))).code).toBe(0);
      const answer = await user.client.post('/api/check-subscription-status');
      expect(answer.body).toEqual({ hasActiveSubscription: false, updated: true, isPremium: false });
      await eventually(async () => !(await t.isPremium(user.id)));
      expect(t.latestPlan(user.id)).toMatchObject({ isPremium: false, planStatus: 'canceled' });
      expect((await user.client.post('/api/check-subscription-status')).body).toEqual({ hasActiveSubscription: false, updated: false, isPremium: false });
    });

    it('is for signed-in users only', async () => {
      for (const path of ['/api/create-subscription', '/api/verify-checkout', '/api/check-subscription-status', '/api/cancel-subscription', '/api/resume-subscription', '/api/billing-portal', '/api/admin/reset-subscription-status']) {
        expect({ path, status: (await t.client().post(path, {})).status }).toEqual({ path, status: 401 });
      }
    });
  });
});
