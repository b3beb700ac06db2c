import { execFile } from 'node:child_process';
import { resolve } from 'node:path';
import { promisify } from 'node:util';
import { PageMessages } from '@plink/contracts';
import { runPlinkCommand } from '@plink/billing';
import { FakeStripe, SmtpCatcher, eventually, type CaughtMail } from '@plink/testing';
import type { TestBrowser } from './testing/http-client';
import { identityUsers } from './testing/operator-users';
import { startTestGateway, type TestGateway } from './testing/test-gateway';

const run = promisify(execFile);
const CLI = resolve(__dirname, '../../cli/dist/main.js');
const BRANDING = 'Made with Plink';
const CUSTOM_CODE = '<script>window.proMarker = 1</script>';
const DAY_MS = 86_400_000;

/**
 * Billing where it meets the other services (its own calls, Stripe and the messages it publishes are
 * tested in libs/billing): the plan reaching the user's account (GET /api/user), their pages and their
 * inbox through every service's jobs, and the operator's command as the built CLI runs it, with identity's
 * directory. The whole gateway with every worker in-process, real PostgreSQL, Redis and SMTP, and FakeStripe.
 */
describe('billing, across the services', () => {
  let gateway: TestGateway;
  let smtp: SmtpCatcher;
  let stripe: FakeStripe;
  let n = 0;

  beforeAll(async () => {
    smtp = await SmtpCatcher.start();
    stripe = await FakeStripe.start();
    gateway = await startTestGateway({
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
    await gateway?.close();
    await stripe?.close();
    await smtp?.stop();
  });

  async function plink(args: string[]) {
    const out: string[] = [];
    const err: string[] = [];
    const code = await runPlinkCommand(args, { out: (line) => out.push(line), err: (line) => err.push(line), env: gateway.env.vars }, identityUsers);
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
  const mailTo = (email: string, subject: RegExp) => smtp.waitFor((m: CaughtMail) => m.to.includes(email.toLowerCase()) && subject.test(m.subject));
  const mailsTo = (email: string, subject: RegExp) => smtp.mails.filter((m) => m.to.includes(email.toLowerCase()) && subject.test(m.subject));
  const dayOf = (when: Date) => when.toLocaleDateString('en-GB', { day: 'numeric', month: 'long', year: 'numeric', timeZone: 'UTC' });

  it('grant-pro makes a user Pro: a second page, branding off, custom code served, and a welcome e-mail; revoke-pro undoes it', async () => {
    const user = await creator();
    const slug = `granted-${n}-${Date.now().toString(36)}`;
    expect((await user.browser.post('/api/pages', { slug, title: 'My page' })).status).toBe(201);
    const second = await user.browser.post('/api/pages', { slug: `${slug}-2`, title: 'Second' });
    expect(second.status).toBe(403);
    expect(second.body.message).toBe(PageMessages.freePlanLimit);
    expect(await publicPage(slug)).toContain(BRANDING); // now cached as a Free owner's page

    const granted = await plink(['grant-pro', user.email.toLowerCase(), '--days', '30']);
    expect(granted.code).toBe(0);
    const until = new Date(/until (\S+)\.$/.exec(granted.out)![1]);
    // The command returns once every copy has the change: the user's requests carry it at once.
    expect(await isPremium(user.browser)).toBe(true);
    const welcome = await mailTo(user.email, /^Welcome to Plink Pro$/);
    expect(welcome.text).toContain(`on the Pro plan until ${dayOf(until)}.`);

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

    // revoke-pro: the public page shows the branding again at once, though the page still has it off.
    expect((await plink(['revoke-pro', user.email])).code).toBe(0);
    await eventually(async () => (await publicPage(slug)).includes(BRANDING), 10_000);
    const after = await publicPage(slug);
    expect(after).not.toContain('window.proMarker');
    expect(after).not.toContain('G-PRO12345');
    expect(await isPremium(user.browser)).toBe(false);
    const stored = await gateway.db.query('select show_branding from pages.pages where slug = $1', [slug]);
    expect(stored.rows[0].show_branding).toBe(false); // the page keeps the creator's choice for an upgrade
    expect((await user.browser.post('/api/pages', { slug: `${slug}-3`, title: 'Third' })).status).toBe(403);
    expect((await mailTo(user.email, /^Your Plink Pro plan has ended$/)).text).toContain('back on the Free plan');
  });

  it('a Stripe trial: Pro on return from checkout, the welcome, the reminder 3 days before its end, and the end e-mails as sent', async () => {
    const user = await creator();
    const checkout = await user.browser.post('/api/create-subscription');
    expect(checkout.status).toBe(200);
    const sessionId = /\/c\/pay\/(cs_[A-Za-z0-9_]+)/.exec(checkout.body.url)![1];
    await stripe.completeCheckout(sessionId);
    expect((await user.browser.post('/api/verify-checkout', { sessionId })).body).toEqual({ success: true, isPremium: true, hasActiveSubscription: true });
    // The SPA's next GET /api/user (identity's copy) already says Pro.
    expect(await isPremium(user.browser)).toBe(true);
    const subscriptionId = stripe.checkoutSession(sessionId).subscription as string;
    const trialEnd = new Date((stripe.subscription(subscriptionId).trial_end as number) * 1000);
    const welcome = await mailTo(user.email, /^Welcome to Plink Pro$/);
    expect(welcome.text).toContain(`Your free Pro trial has started. It ends on ${dayOf(trialEnd)};`);

    await stripe.advanceTime(trialEnd.getTime() - stripe.now() * 1000 - 3 * DAY_MS + 60_000);
    const reminder = await mailTo(user.email, /^Your Plink Pro trial ends in 3 days$/);
    expect(reminder.text).toContain(`Your free Pro trial ends on ${dayOf(trialEnd)}.`);
    expect(reminder.text).toContain('add a card');
    expect(reminder.text).toContain('http://plink.test/settings?tab=subscription');

    await stripe.advanceTime(3 * DAY_MS);
    await eventually(async () => !(await isPremium(user.browser)), 15_000);
    await mailTo(user.email, /^Your Plink Pro plan has ended$/);
    expect(mailsTo(user.email, /^Welcome to Plink Pro$/)).toHaveLength(1);
  });

  it('e-mails a failed renewal with a link to update the card, and the user stays Pro', async () => {
    const user = await creator();
    const checkout = await user.browser.post('/api/create-subscription');
    const sessionId = /\/c\/pay\/(cs_[A-Za-z0-9_]+)/.exec(checkout.body.url)![1];
    await stripe.completeCheckout(sessionId, { withCard: true });
    expect((await user.browser.post('/api/verify-checkout', { sessionId })).body).toMatchObject({ success: true });
    const subscriptionId = stripe.checkoutSession(sessionId).subscription as string;
    await stripe.failNextPayment(subscriptionId);
    const periodEnd = (stripe.subscription(subscriptionId).items as { data: { current_period_end: number }[] }).data[0].current_period_end;
    await stripe.advanceTime(periodEnd * 1000 - stripe.now() * 1000 + 60_000);
    const mail = await mailTo(user.email, /^Your Plink Pro payment failed$/);
    expect(mail.text).toContain('Update your card: http://plink.test/settings?tab=subscription');
    expect(await isPremium(user.browser)).toBe(true);
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
});
