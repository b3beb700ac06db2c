import { execFile } from 'node:child_process';
import { resolve } from 'node:path';
import { promisify } from 'node:util';
import { BillingMessages, PageMessages } from '@plink/contracts';
import { ExpireGrantsService, runPlinkCommand } from '@plink/billing';
import { SmtpCatcher, type CaughtMail } from '@plink/testing';
import type { TestBrowser } from './testing/http-client';
import { identityUsers } from './testing/operator-users';
import { startTestGateway, type TestGateway } from './testing/test-gateway';

const run = promisify(execFile);
const CLI = resolve(__dirname, '../../cli/dist/main.js');
const BRANDING = 'Made with Plink';
const CUSTOM_CODE = '<script>window.proMarker = 1</script>';

/**
 * The Pro plan's foundation as a user and an operator see it: the operator's grant-pro / revoke-pro (the
 * command's own code, and the built CLI), the plan reaching the user, their pages and their inbox through
 * the jobs of every service (the whole gateway with every worker in-process, real PostgreSQL, Redis and
 * SMTP), the expiry of a grant given for some days, and the subscription calls of a server without Stripe.
 */
describe('plans and billing, end to end', () => {
  let gateway: TestGateway;
  let smtp: SmtpCatcher;
  let n = 0;

  beforeAll(async () => {
    smtp = await SmtpCatcher.start();
    gateway = await startTestGateway({ SMTP_URL: smtp.url, PLINK_WORKERS: 'all', AUTH_RATE_LIMIT_PER_MINUTE: '0' });
  });

  afterAll(async () => {
    await gateway?.close();
    await smtp?.stop();
  });

  async function plink(args: string[], env: Record<string, string> = {}, now?: Date) {
    const out: string[] = [];
    const err: string[] = [];
    const code = await runPlinkCommand(args, {
      out: (line) => out.push(line),
      err: (line) => err.push(line),
      env: { ...gateway.env.vars, ...env },
      now,
    }, identityUsers);
    return { code, out: out.join('\n'), err: err.join('\n') };
  }

  /** A registered, verified creator with a session. */
  async function creator(): Promise<{ id: number; email: string; browser: TestBrowser }> {
    n += 1;
    const tag = `${Date.now().toString(36)}${n}`;
    const browser = gateway.browser();
    const who = { username: `pro_${tag}`, email: `Pro.${tag}@Example.com`, password: 'secret-password' };
    const registered = await browser.post('/api/register', who);
    expect(registered.status).toBe(201);
    await gateway.db.query('update identity.users set is_verified = true where id = $1', [registered.body.id]);
    return { id: registered.body.id, email: who.email, browser };
  }

  const isPremium = async (b: TestBrowser) => (await b.get('/api/user')).body.isPremium as boolean;
  const publicPage = async (slug: string) => (await fetch(`${gateway.origin}/${slug}`)).text();
  const mailTo = (email: string, subject: RegExp) =>
    smtp.waitFor((m: CaughtMail) => m.to.includes(email.toLowerCase()) && subject.test(m.subject));

  /** Polls until `check` holds; answers the milliseconds it took. */
  async function eventually(check: () => Promise<boolean>, timeoutMs = 10_000): Promise<number> {
    const started = Date.now();
    while (!(await check())) {
      if (Date.now() - started > timeoutMs) throw new Error(`not reached within ${timeoutMs} ms`);
      await new Promise((r) => setTimeout(r, 50));
    }
    return Date.now() - started;
  }

  it('grant-pro makes a user Pro: a second page, branding off, custom code served, and a welcome e-mail', async () => {
    const user = await creator();
    const slug = `granted-${n}-${Date.now().toString(36)}`;
    expect((await user.browser.post('/api/pages', { slug, title: 'My page' })).status).toBe(201);
    const second = await user.browser.post('/api/pages', { slug: `${slug}-2`, title: 'Second' });
    expect(second.status).toBe(403);
    expect(second.body.message).toBe(PageMessages.freePlanLimit);
    expect(await publicPage(slug)).toContain(BRANDING); // now cached as a Free owner's page

    const granted = await plink(['grant-pro', user.email.toLowerCase(), '--days', '30']);
    expect(granted.err).toBe('');
    expect(granted.code).toBe(0);
    const [, email, id, until] = /^Granted Pro to (\S+) \(user (\d+)\) until (\S+)\.$/.exec(granted.out) ?? [];
    expect({ email, id: Number(id) }).toEqual({ email: user.email.toLowerCase(), id: user.id });
    expect(Math.abs(new Date(until).getTime() - Date.now() - 30 * 86_400_000)).toBeLessThan(60_000);
    const ms = await eventually(() => isPremium(user.browser));
    console.log(`grant-pro → GET /api/user isPremium: ${ms} ms`);

    const welcome = await mailTo(user.email, /^Welcome to Plink Pro$/);
    expect(welcome.text).toMatch(/on the Pro plan until \d{1,2} [A-Z][a-z]+ 20\d\d\./);

    expect((await user.browser.post('/api/pages', { slug: `${slug}-2`, title: 'Second' })).status).toBe(201);
    const pages = (await user.browser.get('/api/pages')).body as { id: number; slug: string }[];
    const first = pages.find((p) => p.slug === slug)!;
    const saved = await user.browser.request('PUT', `/api/pages/${first.id}`, {
      showBranding: false,
      customCodeSnippet: CUSTOM_CODE,
      googleAnalyticsId: 'G-PRO12345',
    });
    expect(saved.status).toBe(200);
    expect(saved.body.showBranding).toBe(false);
    const html = await publicPage(slug);
    expect(html).not.toContain(BRANDING);
    expect(html).toContain('window.proMarker = 1');
    expect(html).toContain('G-PRO12345');

    expect((await user.browser.post('/api/check-subscription-status')).body).toEqual({ hasActiveSubscription: true, updated: false, isPremium: true });
    expect((await user.browser.get('/api/subscription')).body).toMatchObject({
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
    const cancel = await user.browser.post('/api/cancel-subscription');
    expect(cancel.status).toBe(400);
    expect(cancel.body.message).toBe(BillingMessages.grantedByOperator);

    // revoke-pro: the public page shows the branding again at once, though the page still has it off.
    const revoked = await plink(['revoke-pro', user.email]);
    expect(revoked.code).toBe(0);
    expect(revoked.out).toBe(`Revoked Pro from ${user.email} (user ${user.id}).`);
    const dropped = await eventually(async () => (await publicPage(slug)).includes(BRANDING));
    console.log(`revoke-pro → public page shows the branding again: ${dropped} ms`);
    const after = await publicPage(slug);
    expect(after).not.toContain('window.proMarker');
    expect(after).not.toContain('G-PRO12345');
    expect(await isPremium(user.browser)).toBe(false);
    const stored = await gateway.db.query('select show_branding from pages.pages where slug = $1', [slug]);
    expect(stored.rows[0].show_branding).toBe(false); // the page keeps the creator's choice for an upgrade
    expect((await user.browser.post('/api/pages', { slug: `${slug}-3`, title: 'Third' })).status).toBe(403);
    expect((await mailTo(user.email, /^Your Plink Pro plan has ended$/)).text).toContain('back on the Free plan');
    expect((await user.browser.post('/api/check-subscription-status')).body).toEqual({ hasActiveSubscription: false, updated: false, isPremium: false });
    const downgraded = (await user.browser.get('/api/subscription')).body;
    expect(downgraded).toMatchObject({ isPremium: false, status: 'canceled', source: 'operator' });
    // The leads of paused pages go 30 days after the downgrade.
    expect(Date.parse(downgraded.leadRemovalAt) - Date.parse(downgraded.downgradedAt)).toBe(30 * 24 * 60 * 60 * 1000);
    expect(Math.abs(Date.parse(downgraded.downgradedAt) - Date.now())).toBeLessThan(60_000);

    const again = await plink(['revoke-pro', user.email]);
    expect(again.code).toBe(0);
    expect(again.out).toBe(`${user.email} (user ${user.id}) is not Pro; nothing changed.`);
  });

  it('ends a grant given for some days when the scheduled job runs after its end, not before', async () => {
    const user = await creator();
    const granted = await plink(['grant-pro', user.email, '--days', '2']);
    expect(granted.code).toBe(0);
    await eventually(() => isPremium(user.browser));
    const row = await gateway.db.query('select operator_expires_at from billing.accounts where user_id = $1', [user.id]);
    const expiresAt = new Date(row.rows[0].operator_expires_at);
    expect(Math.abs(expiresAt.getTime() - Date.now() - 2 * 86_400_000)).toBeLessThan(60_000);

    const expiry = gateway.app.get(ExpireGrantsService, { strict: false });
    expect(await expiry.execute(new Date(expiresAt.getTime() - 60_000))).toBe(0);
    expect(await isPremium(user.browser)).toBe(true);
    expect(await expiry.execute(new Date(expiresAt.getTime() + 60_000))).toBe(1);
    await eventually(async () => !(await isPremium(user.browser)));
    await mailTo(user.email, /^Your Plink Pro plan has ended$/);
    expect(await expiry.execute(new Date(expiresAt.getTime() + 120_000))).toBe(0);
    const account = await gateway.db.query('select status, is_premium from billing.accounts where user_id = $1', [user.id]);
    expect(account.rows[0]).toEqual({ status: 'canceled', is_premium: false });
  });

  it('keeps a renewed grant when the expiry job meets it, and a grant without --days has no end', async () => {
    const user = await creator();
    expect((await plink(['grant-pro', user.email, '--days', '1'])).code).toBe(0);
    const endless = await plink(['grant-pro', user.email]);
    expect(endless.out).toBe(`${user.email} (user ${user.id}) was already Pro; the grant now runs without end.`);
    const expiry = gateway.app.get(ExpireGrantsService, { strict: false });
    expect(await expiry.execute(new Date(Date.now() + 400 * 86_400_000))).toBe(0);
    await eventually(() => isPremium(user.browser));
    expect(await isPremium(user.browser)).toBe(true);
  });

  it('refuses unknown e-mail addresses and bad arguments with a clear message and a non-zero exit', async () => {
    const before = await gateway.db.query('select count(*)::int as n from platform.outbox');
    const unknown = await plink(['grant-pro', 'nobody@example.com']);
    expect(unknown.code).toBe(1);
    expect(unknown.err).toBe('plink: No user has the e-mail address nobody@example.com.');
    expect(unknown.out).toBe('');
    for (const args of [[], ['grant-pro'], ['grant-pro', 'a@b.example', '--days', '0'], ['grant-pro', 'a@b.example', '--days', 'ten'], ['grant-pro', 'a@b.example', '--weeks', '2'], ['revoke-pro', 'a@b.example', 'c@d.example'], ['promote', 'a@b.example'], ['grant-pro', 'not-an-address']]) {
      const result = await plink(args);
      expect({ args, code: result.code }).toEqual({ args, code: 2 });
      expect(result.err).toMatch(/^plink: .+\nRun "npm run plink -- help" for the commands\.$/);
    }
    expect((await plink(['grant-pro', 'a@b.example', '--days', '0'])).err).toContain('--days must be a whole number of days from 1 to 3650 (got "0")');
    const help = await plink(['help']);
    expect(help.code).toBe(0);
    expect(help.out).toContain('grant-pro <email> [--days N]');
    expect(help.out).toContain('revoke-pro <email>');
    const after = await gateway.db.query('select count(*)::int as n from platform.outbox');
    expect(after.rows[0].n).toBe(before.rows[0].n);
  });

  it('runs as the built command line: help, and an unknown e-mail exits 1', async () => {
    const env = { ...process.env, ...gateway.env.vars };
    const help = await run(process.execPath, [CLI, 'help'], { env });
    expect(help.stdout).toContain('Usage: npm run plink -- <command>');
    const failed = await run(process.execPath, [CLI, 'revoke-pro', 'nobody@example.com'], { env }).then(
      () => null,
      (err: { code: number; stderr: string; stdout: string }) => err,
    );
    expect(failed?.code).toBe(1);
    expect(failed?.stderr).toContain('plink: No user has the e-mail address nobody@example.com.');
    expect(failed?.stdout).toBe('');
  });

  it('records the plan change with its jobs in one transaction: with Redis away from the command, it returns once a relay has applied it', async () => {
    const user = await creator();
    // The command alone cannot reach Redis; the gateway (another process, in effect) relays its jobs.
    const started = Date.now();
    const result = await plink(['grant-pro', user.email], { REDIS_URL: 'redis://127.0.0.1:1' });
    expect(result.code).toBe(0);
    expect(result.out).toBe(`Granted Pro to ${user.email} (user ${user.id}) without end.`);
    expect(result.err).toBe('');
    console.log(`grant-pro while Redis was unreachable from the command → applied by the gateway's relay after ${Date.now() - started} ms`);
    const account = await gateway.db.query('select is_premium, source from billing.accounts where user_id = $1', [user.id]);
    expect(account.rows[0]).toEqual({ is_premium: true, source: 'operator' });
    expect(await isPremium(user.browser)).toBe(true);
    await mailTo(user.email, /^Welcome to Plink Pro$/);
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
        const answer = await user.browser.post(path, body);
        expect({ path, status: answer.status, body: answer.body }).toEqual({ path, status: 503, body: { message: 'Payments are not configured on this server.' } });
      }
      const bad = await user.browser.post('/api/verify-checkout', {});
      expect(bad.status).toBe(400);
      expect(bad.body.message).toEqual(expect.any(String));
    });

    it('refuses a Stripe webhook (400) and stores nothing: there is no signing secret to check it with', async () => {
      const body = JSON.stringify({ id: 'evt_unconfigured', object: 'event', type: 'customer.subscription.created', created: 1, data: { object: {} } });
      const answer = await fetch(`${gateway.origin}/api/webhooks/stripe`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'stripe-signature': `t=${Math.floor(Date.now() / 1000)},v1=${'0'.repeat(64)}` },
        body,
      });
      expect(answer.status).toBe(400);
      expect(await answer.json()).toEqual({ message: BillingMessages.webhookSignatureInvalid });
      expect((await gateway.db.query('select count(*)::int as n from billing.stripe_events')).rows[0].n).toBe(0);
    });

    it("answers the caller's own stored plan to the status and reset calls", async () => {
      const free = await creator();
      for (const path of ['/api/check-subscription-status', '/api/admin/reset-subscription-status']) {
        const answer = await free.browser.post(path);
        expect({ path, status: answer.status, body: answer.body }).toEqual({ path, status: 200, body: { hasActiveSubscription: false, updated: false, isPremium: false } });
      }
      const pro = await creator();
      expect((await plink(['grant-pro', pro.email])).code).toBe(0);
      expect((await pro.browser.post('/api/admin/reset-subscription-status')).body).toEqual({ hasActiveSubscription: true, updated: false, isPremium: true });
      // Another user's reset touches only their own plan.
      expect((await free.browser.post('/api/admin/reset-subscription-status')).body.isPremium).toBe(false);
      expect((await pro.browser.post('/api/check-subscription-status')).body.isPremium).toBe(true);
    });

    it('ends a grant past its end at the status check, before the expiry job gets to it', async () => {
      const user = await creator();
      expect((await plink(['grant-pro', user.email, '--days', '1'], {}, new Date(Date.now() - 2 * 86_400_000))).code).toBe(0);
      const answer = await user.browser.post('/api/check-subscription-status');
      expect(answer.body).toEqual({ hasActiveSubscription: false, updated: true, isPremium: false });
      await eventually(async () => !(await isPremium(user.browser)));
      expect((await user.browser.post('/api/check-subscription-status')).body).toEqual({ hasActiveSubscription: false, updated: false, isPremium: false });
    });

    it('is for signed-in users only', async () => {
      for (const path of ['/api/create-subscription', '/api/verify-checkout', '/api/check-subscription-status', '/api/cancel-subscription', '/api/resume-subscription', '/api/billing-portal', '/api/admin/reset-subscription-status']) {
        expect({ path, status: (await gateway.browser().post(path, {})).status }).toEqual({ path, status: 401 });
      }
    });
  });
});
