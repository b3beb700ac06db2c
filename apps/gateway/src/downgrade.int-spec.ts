import { LeadRemovalService, runPlinkCommand } from '@plink/billing';
import { LeadMessages, PageMessages, QueueName, type PageDto } from '@plink/contracts';
import { OwnerPlanChangedService } from '@plink/pages';
import { JobQueue } from '@plink/queue';
import { SmtpCatcher, type CaughtMail } from '@plink/testing';
import type { TestBrowser } from './testing/http-client';
import { identityUsers } from './testing/operator-users';
import { startTestGateway, type TestGateway } from './testing/test-gateway';

const DAY = 86_400_000;
const PAUSED = 'This page is paused';

/**
 * What happens when Pro ends, as a creator and their visitors see it, through the whole gateway
 * with every worker in-process (real PostgreSQL, Redis and SMTP): the oldest page stays live and the
 * others are paused (404 'This page is paused', no sign-ups), the creator chooses the live page, plan
 * changes arriving twice or late change nothing, Pro again brings every page back; and the removal of the
 * paused pages' leads 30 days after the downgrade, with its warning a week before, on a clock the test sets.
 */
describe('downgrade: paused pages and the 30-day lead removal', () => {
  let gateway: TestGateway;
  let smtp: SmtpCatcher;
  let n = 0;

  beforeAll(async () => {
    smtp = await SmtpCatcher.start();
    gateway = await startTestGateway({ SMTP_URL: smtp.url, PLINK_WORKERS: 'all', AUTH_RATE_LIMIT_PER_MINUTE: '0', LEAD_RATE_LIMIT_PER_MINUTE: '0' });
  });

  afterAll(async () => {
    await gateway?.close();
    await smtp?.stop();
  });

  async function plink(...args: string[]) {
    const out: string[] = [];
    const code = await runPlinkCommand(args, { out: (line) => out.push(line), err: (line) => out.push(line), env: gateway.env.vars }, identityUsers);
    expect({ args, code, out }).toMatchObject({ args, code: 0 });
  }

  /** Polls until `check` holds. */
  async function eventually(check: () => Promise<boolean>, timeoutMs = 10_000): Promise<void> {
    const started = Date.now();
    while (!(await check())) {
      if (Date.now() - started > timeoutMs) throw new Error(`not reached within ${timeoutMs} ms`);
      await new Promise((r) => setTimeout(r, 50));
    }
  }

  interface Creator {
    id: number;
    email: string;
    username: string;
    browser: TestBrowser;
    /** Oldest first. */
    pages: { id: number; slug: string; title: string }[];
  }

  /** A verified Pro creator with `count` pages (created a day apart, the first the oldest), each with two leads. */
  async function proCreatorWithPages(count: number): Promise<Creator> {
    n += 1;
    const tag = `${Date.now().toString(36)}${n}`;
    const browser = gateway.browser();
    const who = { username: `down_${tag}`, email: `down.${tag}@example.com`, password: 'secret-password' };
    const registered = await browser.post('/api/register', who);
    expect(registered.status).toBe(201);
    const id = registered.body.id as number;
    await gateway.db.query('update identity.users set is_verified = true where id = $1', [id]);
    await plink('grant-pro', who.email);
    await eventually(async () => (await browser.get('/api/user')).body.isPremium === true);
    const pages: Creator['pages'] = [];
    for (let i = 0; i < count; i += 1) {
      const slug = `down-${tag}-${i + 1}`;
      const title = `Secret title ${tag} ${i + 1}`;
      const created = await browser.post('/api/pages', { slug, title });
      expect(created.status).toBe(201);
      await gateway.db.query("update pages.pages set created_at = now() - make_interval(days => $2) where id = $1", [created.body.id, 10 - i]);
      pages.push({ id: created.body.id, slug, title });
      for (const who of ['ann', 'bob']) {
        expect((await submit(slug, `${who}.${i + 1}@visitors.example`)).status).toBe(200);
      }
    }
    return { id, email: who.email, username: who.username, browser, pages };
  }

  const submit = (slug: string, email: string) => gateway.browser().post(`/api/page/${slug}/submit`, { email, consent: true });
  const visit = async (path: string) => {
    const response = await fetch(`${gateway.origin}${path}`);
    return { status: response.status, html: await response.text() };
  };
  const leadsOf = async (pageId: number) => Number((await gateway.db.query('select count(*) from leads.leads where page_id = $1', [pageId])).rows[0].count);
  const pausedOf = async (c: Creator) => {
    const pages = (await c.browser.get('/api/pages')).body as PageDto[];
    return Object.fromEntries(pages.map((p) => [p.slug, p.paused]));
  };
  const isPaused = async (slug: string) => (await visit(`/${slug}`)).status === 404;

  /** Waits until the queued job with this id has been handled by its worker (completed, or completed and already cleaned away). */
  async function handled(queue: QueueName, jobId: string): Promise<void> {
    const jobs = gateway.app.get(JobQueue, { strict: false });
    await eventually(async () => {
      const job = await jobs.queue(queue).getJob(jobId);
      return !job || (await job.isCompleted());
    }, 15_000);
  }

  it('keeps the oldest page live and pauses the others; visitors see "This page is paused" and cannot sign up', async () => {
    const c = await proCreatorWithPages(3);
    const [oldest, second, third] = c.pages;
    for (const page of c.pages) expect((await visit(`/${page.slug}`)).status).toBe(200); // cached while Pro

    await plink('revoke-pro', c.email);
    await eventually(() => isPaused(second.slug));

    expect(await pausedOf(c)).toEqual({ [oldest.slug]: false, [second.slug]: true, [third.slug]: true });
    const live = await visit(`/${oldest.slug}`);
    expect(live.status).toBe(200);
    expect(live.html).toContain(oldest.title);
    for (const page of [second, third]) {
      for (const path of [`/${page.slug}`, `/p/${page.slug}`, `/p/${c.username}/${page.slug}`]) {
        const paused = await visit(path);
        expect({ path, status: paused.status }).toEqual({ path, status: 404 });
        expect(paused.html).toContain(`<h1>${PAUSED}</h1>`);
        expect(paused.html).toContain("The creator's plan changed");
        expect(paused.html).toContain('<meta name="robots" content="noindex">');
        expect(paused.html).not.toContain(page.title);
        expect(paused.html).not.toContain(c.username);
      }
      const api = await gateway.browser().get(`/api/page/${page.slug}`);
      expect(api).toMatchObject({ status: 404, body: { message: PageMessages.pagePaused } });
    }

    // Sign-ups are refused and nothing is stored, by the JSON call and by the no-JavaScript form.
    const refused = await submit(second.slug, 'carol@visitors.example');
    expect(refused).toMatchObject({ status: 404, body: { message: LeadMessages.pagePaused } });
    const form = await fetch(`${gateway.origin}/${third.slug}`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: 'email=dave%40visitors.example&consent=on',
      redirect: 'manual',
    });
    expect(form.status).toBe(404);
    expect(await form.text()).toContain(PAUSED);
    expect([await leadsOf(second.id), await leadsOf(third.id)]).toEqual([2, 2]);
    expect((await submit(oldest.slug, 'carol@visitors.example')).status).toBe(200);
    expect(await leadsOf(oldest.id)).toBe(3);

    // Views of a paused page are not counted; the live page's are. Each page was seen once while Pro; the
    // oldest once more above (`live`) and once below; the third only while paused since.
    const viewsOf = async (pageId: number) => Number((await gateway.db.query('select views from pages.pages where id = $1', [pageId])).rows[0].views);
    for (let i = 0; i < 5; i += 1) await visit(`/${third.slug}`);
    expect((await gateway.browser().get(`/api/page/${third.slug}`)).status).toBe(404);
    await visit(`/${oldest.slug}`);
    await eventually(async () => (await viewsOf(oldest.id)) === 3, 15_000);
    expect(await viewsOf(third.id)).toBe(1);

    // The owner still edits a paused page, sees its stats and exports its leads; a second page stays refused.
    const edited = await c.browser.request('PUT', `/api/pages/${second.id}`, { title: 'Edited while paused' });
    expect(edited.status).toBe(200);
    expect(edited.body).toMatchObject({ title: 'Edited while paused', paused: true });
    expect((await c.browser.get(`/api/pages/${second.id}`)).body.paused).toBe(true);
    expect((await c.browser.get(`/api/pages/${second.id}/stats`)).body).toMatchObject({ conversions: 2 });
    const csv = await c.browser.get(`/api/pages/${second.id}/export`);
    expect(csv.status).toBe(200);
    expect(csv.body).toContain('ann.2@visitors.example');
    const another = await c.browser.post('/api/pages', { slug: `${oldest.slug}-x`, title: 'One more' });
    expect(another).toMatchObject({ status: 403, body: { message: PageMessages.freePlanLimit } });
    expect(await isPaused(second.slug)).toBe(true);
  });

  it('lets a Free owner choose the live page, and only their own', async () => {
    const c = await proCreatorWithPages(3);
    const [oldest, second, third] = c.pages;
    await plink('revoke-pro', c.email);
    await eventually(() => isPaused(third.slug));
    expect((await visit(`/${oldest.slug}`)).status).toBe(200); // cached as live

    const kept = await c.browser.post(`/api/pages/${third.id}/keep-live`);
    expect(kept.status).toBe(200);
    expect(kept.body.message).toBe(PageMessages.keptLive);
    expect(Object.fromEntries((kept.body.pages as PageDto[]).map((p) => [p.slug, p.paused]))).toEqual({
      [oldest.slug]: true,
      [second.slug]: true,
      [third.slug]: false,
    });
    // Every cache dropped the two pages at once.
    expect((await visit(`/${third.slug}`)).status).toBe(200);
    expect(await visit(`/${oldest.slug}`)).toMatchObject({ status: 404 });
    expect((await visit(`/${oldest.slug}`)).html).toContain(PAUSED);
    expect((await submit(third.slug, 'erin@visitors.example')).status).toBe(200);
    expect((await submit(oldest.slug, 'erin@visitors.example')).status).toBe(404);

    // Choosing the live page again changes nothing.
    expect((await c.browser.post(`/api/pages/${third.id}/keep-live`)).status).toBe(200);
    expect(await pausedOf(c)).toEqual({ [oldest.slug]: true, [second.slug]: true, [third.slug]: false });

    // Another user's page does not exist for them; signed-out callers and bad ids are refused.
    const other = await proCreatorWithPages(1);
    const foreign = await other.browser.post(`/api/pages/${second.id}/keep-live`);
    expect(foreign).toMatchObject({ status: 404, body: { message: PageMessages.pageNotFound } });
    expect((await gateway.browser().post(`/api/pages/${second.id}/keep-live`)).status).toBe(401);
    expect((await c.browser.post('/api/pages/not-a-number/keep-live')).status).toBe(404);
    expect(await pausedOf(c)).toEqual({ [oldest.slug]: true, [second.slug]: true, [third.slug]: false });
  });

  it('follows the plan as it is now, whatever order or repeats the plan-change jobs come in; Pro again brings every page back', async () => {
    const c = await proCreatorWithPages(3);
    const [oldest, second, third] = c.pages;
    await plink('revoke-pro', c.email);
    await eventually(() => isPaused(second.slug));
    expect((await c.browser.post(`/api/pages/${second.id}/keep-live`)).status).toBe(200);
    const chosen = { [oldest.slug]: true, [second.slug]: false, [third.slug]: true };
    expect(await pausedOf(c)).toEqual(chosen);

    // The same job again (a retry, a duplicate): the owner's choice stays.
    const plans = gateway.app.get(OwnerPlanChangedService, { strict: false });
    expect(await plans.execute(c.id)).toEqual({ paused: 0, unpaused: 0 });
    // A late copy of the change that once made them Pro (billing's version 1), on identity's and pages' queues
    // through the real workers: each copy holds a newer version, so neither changes and nothing is un-paused.
    const jobs = gateway.app.get(JobQueue, { strict: false });
    const meta = { correlationId: 'late-plan-change', recordedAt: new Date().toISOString() };
    const late = `late-${c.id}`;
    const payload = {
      v: 1 as const,
      userId: c.id,
      isPremium: true,
      planStatus: 'active' as const,
      periodEnd: null,
      stripeCustomerId: null,
      stripeSubscriptionId: null,
      version: 1,
      changedAt: new Date(Date.now() - DAY).toISOString(),
    };
    await jobs.addMany([
      { name: 'plan.changed', queue: QueueName.Identity, envelope: { payload, meta }, jobId: `${late}-identity` },
      { name: 'plan.changed', queue: QueueName.Pages, envelope: { payload, meta }, jobId: `${late}-pages` },
    ]);
    await handled(QueueName.Identity, `${late}-identity`);
    await handled(QueueName.Pages, `${late}-pages`);
    expect((await c.browser.get('/api/user')).body.isPremium).toBe(false);
    expect(await pausedOf(c)).toEqual(chosen);
    expect(await isPaused(oldest.slug)).toBe(true);

    await plink('grant-pro', c.email);
    await eventually(async () => !(await isPaused(oldest.slug)) && !(await isPaused(third.slug)));
    expect(await pausedOf(c)).toEqual({ [oldest.slug]: false, [second.slug]: false, [third.slug]: false });
    for (const page of c.pages) expect((await submit(page.slug, 'back@visitors.example')).status).toBe(200);
    // A duplicate of the grant's job un-pauses nothing more and pauses nothing.
    expect(await plans.execute(c.id)).toEqual({ paused: 0, unpaused: 0 });
  });

  describe('the removal of paused pages’ leads, 30 days after the downgrade', () => {
    const removal = () => gateway.app.get(LeadRemovalService, { strict: false });
    const downgradedAt = async (userId: number) =>
      new Date((await gateway.db.query('select downgraded_at from billing.accounts where user_id = $1', [userId])).rows[0].downgraded_at);
    const warningsTo = (email: string) => smtp.mailsTo(email).filter((m) => /^Leads of your paused Plink pages will be removed on /.test(m.subject));
    const day = (date: Date) => date.toLocaleDateString('en-GB', { day: 'numeric', month: 'long', year: 'numeric', timeZone: 'UTC' });

    it('warns once at day 23, then removes the paused pages’ leads at day 30; the live page keeps its leads and every count stays', async () => {
      const c = await proCreatorWithPages(3);
      const [oldest, second, third] = c.pages;
      await plink('revoke-pro', c.email);
      await eventually(() => isPaused(third.slug));
      const since = await downgradedAt(c.id);
      const removalAt = new Date(since.getTime() + 30 * DAY);
      expect((await c.browser.get('/api/subscription')).body.leadRemovalAt).toBe(removalAt.toISOString());

      expect((await removal().execute(new Date(since.getTime() + 22 * DAY))).warned).not.toContain(c.id);
      const warned = await removal().execute(new Date(since.getTime() + 23 * DAY));
      expect(warned.warned).toContain(c.id);
      expect(warned.removed).not.toContain(c.id);
      const mail = await smtp.waitFor((m: CaughtMail) => m.to.includes(c.email) && m.subject.startsWith('Leads of your paused'));
      expect(mail.subject).toBe(`Leads of your paused Plink pages will be removed on ${day(removalAt)}`);
      expect(mail.text).toContain(`The e-mail addresses collected by your paused pages will be removed on ${day(removalAt)}.`);
      expect(mail.text).toContain(`${gateway.config.appOrigin}/dashboard`);
      expect(mail.text).toContain('Upgrading to Pro keeps them');

      // Once: later passes before the date neither warn again nor remove anything.
      for (const at of [24, 29]) {
        const pass = await removal().execute(new Date(since.getTime() + at * DAY));
        expect({ at, warned: pass.warned.includes(c.id), removed: pass.removed.includes(c.id) }).toEqual({ at, warned: false, removed: false });
      }
      expect([await leadsOf(second.id), await leadsOf(third.id)]).toEqual([2, 2]);

      const removed = await removal().execute(new Date(since.getTime() + 30 * DAY));
      expect(removed.removed).toContain(c.id);
      await eventually(async () => (await leadsOf(second.id)) === 0 && (await leadsOf(third.id)) === 0);
      expect(await leadsOf(oldest.id)).toBe(2);
      const pages = (await c.browser.get('/api/pages')).body as PageDto[];
      expect(Object.fromEntries(pages.map((p) => [p.slug, p.conversions]))).toEqual({ [oldest.slug]: 2, [second.slug]: 2, [third.slug]: 2 });
      expect((await c.browser.get(`/api/pages/${second.id}/stats`)).body).toMatchObject({ conversions: 2, leads: [] });
      expect((await c.browser.get('/api/subscription')).body.leadRemovalAt).toBeNull();

      expect((await removal().execute(new Date(since.getTime() + 31 * DAY))).removed).not.toContain(c.id);
      expect(warningsTo(c.email)).toHaveLength(1);
    });

    it('is cancelled by upgrading before day 30: pages back, leads kept; a later downgrade starts the 30 days afresh', async () => {
      const c = await proCreatorWithPages(2);
      const [, second] = c.pages;
      await plink('revoke-pro', c.email);
      await eventually(() => isPaused(second.slug));
      const since = await downgradedAt(c.id);
      expect((await removal().execute(new Date(since.getTime() + 23 * DAY))).warned).toContain(c.id);

      await plink('grant-pro', c.email);
      await eventually(async () => !(await isPaused(second.slug)));
      expect((await c.browser.get('/api/subscription')).body).toMatchObject({ isPremium: true, downgradedAt: null, leadRemovalAt: null });
      expect((await removal().execute(new Date(since.getTime() + 30 * DAY))).removed).not.toContain(c.id);
      expect(await leadsOf(second.id)).toBe(2);

      await plink('revoke-pro', c.email);
      await eventually(() => isPaused(second.slug));
      const again = await downgradedAt(c.id);
      expect(again.getTime()).toBeGreaterThanOrEqual(since.getTime());
      expect((await removal().execute(new Date(again.getTime() + 22 * DAY))).warned).not.toContain(c.id);
      expect((await removal().execute(new Date(again.getTime() + 23 * DAY))).warned).toContain(c.id);
      expect(await leadsOf(second.id)).toBe(2);
    });

    it('sends no warning to a downgraded user without paused pages', async () => {
      const c = await proCreatorWithPages(1);
      await plink('revoke-pro', c.email);
      await eventually(async () => (await c.browser.get('/api/user')).body.isPremium === false);
      const since = await downgradedAt(c.id);
      expect((await removal().execute(new Date(since.getTime() + 23 * DAY))).warned).toContain(c.id);
      // The warning reached the pages service, which dropped it: the user has no paused page.
      const pages = gateway.app.get(JobQueue, { strict: false }).queue(QueueName.Pages);
      await eventually(async () =>
        (await pages.getJobs(['completed'])).some((job) => job.name === 'pages.lead-removal-warning' && job.data?.payload?.userId === c.id),
      );
      expect(warningsTo(c.email)).toHaveLength(0);
      expect(await leadsOf(c.pages[0].id)).toBe(2);
    });
  });
});
