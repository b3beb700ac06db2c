import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import { Client } from 'pg';
import { QueueName, conversionRate, type PageDto } from '@plink/contracts';
import { JobQueue } from '@plink/platform';
import { SmtpCatcher, type CaughtMail } from '@plink/testing';
import { TestBrowser } from './testing/http-client';
import { startTestGateway, type TestGateway } from './testing/test-gateway';

/**
 * The leads service end to end, as visitors and creators see it: the whole gateway with every
 * service's processors in-process, a real PostgreSQL database, Redis and SMTP server.
 * LEAD_RATE_LIMIT_PER_MINUTE=0 here (many submissions from one address); the limit itself is
 * shown in leads-rate-limit.int-spec.ts.
 */
describe('leads, end to end', () => {
  let gateway: TestGateway;
  let smtp: SmtpCatcher;
  let app: NestFastifyApplication;
  let origin: string;
  let db: Client;

  beforeAll(async () => {
    smtp = await SmtpCatcher.start();
    gateway = await startTestGateway({
      SMTP_URL: smtp.url,
      PLINK_WORKERS: 'all',
      AUTH_RATE_LIMIT_PER_MINUTE: '1000',
      LEAD_RATE_LIMIT_PER_MINUTE: '0',
      DATABASE_POOL_MAX: '10',
    });
    ({ app, origin, db } = gateway);
  });

  afterAll(async () => {
    await gateway?.close();
    await smtp?.stop();
  });

  // --- helpers -----------------------------------------------------------------------------------------
  const browser = () => new TestBrowser(origin);
  let n = 0;
  const tag = () => `${Date.now().toString(36)}${(n += 1)}`;

  interface Creator {
    id: number;
    username: string;
    browser: TestBrowser;
  }

  /** A verified creator, Free or Pro (the plan is set in the database: billing comes later). */
  async function creator(plan: 'free' | 'pro' = 'pro'): Promise<Creator> {
    const b = browser();
    const t = tag();
    const who = { username: `creator_${t}`, email: `creator.${t}@example.com`, password: 'creator-secret' };
    const registered = await b.post('/api/register', who);
    expect(registered.status).toBe(201);
    await db.query('update identity.users set is_verified = true, is_premium = $2 where id = $1', [registered.body.id, plan === 'pro']);
    return { id: registered.body.id, username: who.username, browser: b };
  }

  async function createPage(owner: Creator, fields: Record<string, unknown> = {}): Promise<PageDto> {
    const res = await owner.browser.post('/api/pages', { slug: `page-${tag()}`, title: 'A landing page', ...fields });
    expect({ status: res.status, body: res.body }).toMatchObject({ status: 201 });
    return res.body as PageDto;
  }

  const submit = (slug: string, body: unknown, b = browser()) => b.post(`/api/page/${slug}/submit`, body);

  const formPost = (path: string, fields: Record<string, string>) =>
    fetch(origin + path, {
      method: 'POST',
      redirect: 'manual',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams(fields).toString(),
    });

  const leadCount = async (pageId: number) => Number((await db.query('select count(*) from leads.leads where page_id = $1', [pageId])).rows[0].count);
  const conversions = async (pageId: number) =>
    Number((await db.query('select coalesce(sum(conversions), 0) as conversions from leads.page_counters where page_id = $1', [pageId])).rows[0].conversions);
  const leadId = async (pageId: number, email: string) =>
    Number((await db.query('select id from leads.leads where page_id = $1 and email_lower = lower($2)', [pageId, email])).rows[0]?.id);

  async function eventually<T>(probe: () => Promise<T>, ok: (value: T) => boolean, timeoutMs = 10_000): Promise<T> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const value = await probe();
      if (ok(value) || Date.now() > deadline) return value;
      await new Promise((r) => setTimeout(r, 100));
    }
  }

  /** Every recorded job has left the outbox for BullMQ. */
  const outboxDrained = () =>
    eventually(
      async () => Number((await db.query('select count(*) from platform.outbox').then((r) => r.rows[0].count))),
      (count) => count === 0,
    );

  const queue = (name: QueueName) => app.get(JobQueue).queue(name);
  const jobsOf = async (name: QueueName, jobName: string) =>
    (await queue(name).getJobs(['waiting', 'delayed', 'prioritized', 'active', 'completed', 'failed'])).filter(
      (j) => j?.name === jobName,
    );

  const okAnswer = {
    status: 200,
    body: {
      success: true,
      thankYouHeadline: 'Thank you!',
      thankYouSubtext: 'Check your email for your download link.',
      thankYouButton: null,
      redirectUrl: null,
    },
  };

  let pro: Creator;
  beforeAll(async () => {
    pro = await creator('pro');
  });

  // --- submissions ---------------------------------------------------------------------------------------

  it('accepts a valid submission with what the page shows next, and refuses bad input with a 400, storing nothing', async () => {
    const page = await createPage(pro);
    const cases: [unknown, string][] = [
      [{ email: 'not-an-email', consent: true }, 'Please enter a valid email address'],
      [{ email: `${'x'.repeat(243)}@example.com`, consent: true }, 'Please enter a valid email address'], // 255 characters
      [{ email: '', consent: true }, 'Please enter a valid email address'],
      [{ consent: true }, 'Please enter a valid email address'],
      [{ email: ['a@example.com'], consent: true }, 'Please enter a valid email address'],
      [{ email: 'ada@example.com' }, 'Please agree to the privacy policy to continue.'],
      [{ email: 'ada@example.com', consent: false }, 'Please agree to the privacy policy to continue.'],
      ['[]', 'Invalid request'],
    ];
    for (const [body, message] of cases) {
      const res = await submit(page.slug, body);
      expect({ body, status: res.status, message: res.body?.message }).toEqual({ body, status: 400, message: expect.any(String) });
      if (message !== 'Invalid request') expect(res.body.message).toBe(message);
    }
    expect((await submit(page.slug, '{not json')).status).toBe(400);
    expect(await leadCount(page.id)).toBe(0);

    // 254 characters is still an address.
    expect(await submit(page.slug, { email: `${'x'.repeat(242)}@example.com`, consent: true })).toMatchObject(okAnswer);
    expect(await submit(page.slug, { email: '  Grace@Example.com ', consent: 'on' })).toMatchObject(okAnswer);
    expect(await leadCount(page.id)).toBe(2);
    const stored = (await db.query('select email, email_lower, consent_at, created_at from leads.leads where page_id = $1 and email_lower = $2', [page.id, 'grace@example.com'])).rows[0];
    expect(stored.email).toBe('Grace@Example.com');
    expect(stored.consent_at).toBeInstanceOf(Date);
  });

  it('needs no consent when the page hides the privacy checkbox, and answers the thank-you settings', async () => {
    const page = await createPage(pro, {
      hidePrivacyPolicyCheckbox: true,
      thankYouHeadline: 'You are in!',
      thankYouSubtext: 'See you soon.',
      thankYouButtonText: 'Read the blog',
      thankYouButtonUrl: 'https://blog.example/welcome',
      redirectUrl: 'https://example.com/next',
    });
    expect(await submit(page.slug, { email: 'hidden@example.com' })).toEqual({
      status: 200,
      headers: expect.anything(),
      body: {
        success: true,
        thankYouHeadline: 'You are in!',
        thankYouSubtext: 'See you soon.',
        thankYouButton: { text: 'Read the blog', url: 'https://blog.example/welcome' },
        redirectUrl: 'https://example.com/next',
      },
    });
    expect((await db.query('select consent_at from leads.leads where page_id = $1', [page.id])).rows[0].consent_at).toBeNull();

    // A button needs both its text and its URL.
    const half = await createPage(pro, { thankYouButtonText: 'Only text' });
    expect((await submit(half.slug, { email: 'half@example.com', consent: true })).body.thankYouButton).toBeNull();
  });

  it('answers 404 for an unknown or reserved slug', async () => {
    expect(await submit('no-such-page-anywhere', { email: 'a@example.com', consent: true })).toMatchObject({
      status: 404,
      body: { message: 'Page not found' },
    });
    expect((await submit('dashboard', { email: 'a@example.com', consent: true })).status).toBe(404);
  });

  it('answers a bot that fills the honeypot exactly like a person, and stores nothing', async () => {
    const page = await createPage(pro, { fileUrl: 'https://files.example/bot.pdf' });
    const bot = await submit(page.slug, { email: 'bot@example.com', consent: true, website: 'https://spam.example' });
    const human = await submit(page.slug, { email: 'human@example.com', consent: true, website: '' });
    expect(bot.status).toBe(200);
    expect(bot.body).toEqual(human.body);
    expect(await leadCount(page.id)).toBe(1);
    expect(await conversions(page.id)).toBe(1);
    await smtp.waitFor((m) => m.to.includes('human@example.com'));
    await outboxDrained();
    expect(smtp.mailsTo('bot@example.com')).toHaveLength(0);
  });

  it('lets one address submit as often as it likes when LEAD_RATE_LIMIT_PER_MINUTE is 0', async () => {
    const page = await createPage(pro);
    const answers = [];
    for (let i = 0; i < 30; i += 1) answers.push((await submit(page.slug, { email: `often${i}@example.com`, consent: true })).status);
    expect(answers.every((s) => s === 200)).toBe(true);
    expect(await leadCount(page.id)).toBe(30);
  });

  it('stores one lead and one conversion for 50 simultaneous submissions of one address in mixed case', async () => {
    const page = await createPage(pro, { fileUrl: 'https://files.example/once.pdf' });
    const spellings = ['same@example.com', 'SAME@example.com', 'Same@Example.Com', 'same@EXAMPLE.com', ' same@example.com '];
    const answers = await Promise.all(Array.from({ length: 50 }, (_, i) => submit(page.slug, { email: spellings[i % spellings.length], consent: true })));
    expect(answers.map((a) => a.status)).toEqual(Array(50).fill(200));
    expect(answers.every((a) => a.body.success === true)).toBe(true);
    expect(await leadCount(page.id)).toBe(1);
    expect(await conversions(page.id)).toBe(1);
    // … and one file e-mail.
    await smtp.waitFor((m) => m.to.includes('same@example.com'));
    await outboxDrained();
    const id = await leadId(page.id, 'same@example.com');
    expect((await jobsOf(QueueName.Email, 'email.file-delivery')).filter((j) => j.data.payload.leadId === id)).toHaveLength(1);
  });

  it('keeps all of 1000 simultaneous distinct submissions', async () => {
    const page = await createPage(pro);
    const t = tag();
    const answers = await Promise.all(
      Array.from({ length: 1000 }, (_, i) =>
        fetch(`${origin}/api/page/${page.slug}/submit`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ email: `crowd${i}.${t}@example.com`, consent: true }),
        }).then(async (r) => ({ status: r.status, body: await r.text() })),
      ),
    );
    const failed = answers.filter((a) => a.status !== 200);
    expect(failed.slice(0, 3)).toEqual([]);
    expect(await leadCount(page.id)).toBe(1000);
    expect(await conversions(page.id)).toBe(1000);
  }, 60_000);

  // --- jobs ----------------------------------------------------------------------------------------------

  it('e-mails the file link with the page title and nothing the visitor typed', async () => {
    const page = await createPage(pro, { title: 'The <Photo> Guide & more', fileUrl: 'https://files.example/guide.pdf?x=1&y=2' });
    const visitor = "o'brien+tricky-note@example.com";
    expect((await submit(page.slug, { email: visitor, consent: true })).status).toBe(200);
    const mail: CaughtMail = await smtp.waitFor((m) => m.to.includes(visitor));
    expect(mail.raw).toMatch(/multipart\/alternative/);
    expect(mail.subject).toBe('Your download: The <Photo> Guide & more');
    expect(mail.text).toContain('The <Photo> Guide & more');
    expect(mail.text).toContain('https://files.example/guide.pdf?x=1&y=2');
    expect(mail.html).toContain('The &lt;Photo&gt; Guide &amp; more');
    expect(mail.html).not.toContain('<Photo>');
    expect(mail.html.match(/href="https:\/\/files\.example\/guide\.pdf\?x=1&amp;y=2"/g)).toHaveLength(2);
    expect(mail.text).toContain('Plink');
    // The address is only the recipient: neither body repeats what the visitor typed.
    for (const body of [mail.text, mail.html]) {
      expect(body).not.toContain('brien');
      expect(body).not.toContain('tricky-note');
    }
  });

  it('sends no file e-mail for a page without a file', async () => {
    const page = await createPage(pro);
    await submit(page.slug, { email: 'nofile@example.com', consent: true });
    const id = await leadId(page.id, 'nofile@example.com');
    await outboxDrained();
    expect((await jobsOf(QueueName.Email, 'email.file-delivery')).filter((j) => j.data.payload.leadId === id)).toHaveLength(0);
    expect(smtp.mailsTo('nofile@example.com')).toHaveLength(0);
  });

  it('skips the file e-mail quietly when the lead or its page is gone, or the page has no file', async () => {
    const noFile = await createPage(pro);
    await submit(noFile.slug, { email: 'plain@example.com', consent: true });
    const orphan = (
      await db.query(`insert into leads.leads (page_id, email, email_lower) values (2147483000, 'orphan@example.com', 'orphan@example.com') returning id`)
    ).rows[0].id as number;
    const jobs = app.get(JobQueue);
    const cases = [
      { leadId: 2147483001, why: 'no such lead' },
      { leadId: orphan, why: 'no such page' },
      { leadId: await leadId(noFile.id, 'plain@example.com'), why: 'no file' },
    ];
    for (const { leadId: id, why } of cases) {
      const jobId = `skip-${id}`;
      await jobs.add('email.file-delivery', { payload: { v: 1, leadId: id }, meta: { correlationId: jobId, recordedAt: new Date().toISOString() } }, jobId);
      const state = await eventually(
        async () => (await queue(QueueName.Email).getJob(jobId))?.getState(),
        (s) => s === 'completed' || s === 'failed',
      );
      expect({ why, state }).toEqual({ why, state: 'completed' });
    }
    expect(smtp.mailsTo('orphan@example.com')).toHaveLength(0);
    expect(smtp.mailsTo('plain@example.com')).toHaveLength(0);
  });

  it('records a webhook delivery only for a Pro owner’s page with a webhook URL', async () => {
    const withHook = await createPage(pro, { webhookUrl: 'https://hooks.example/plink' });
    const withoutHook = await createPage(pro);
    const free = await creator('free');
    const freePage = await createPage(free, { webhookUrl: 'https://hooks.example/free' });
    for (const page of [withHook, withoutHook, freePage]) {
      expect((await submit(page.slug, { email: 'hooked@example.com', consent: true })).status).toBe(200);
    }
    await outboxDrained();
    const hookJobs = await jobsOf(QueueName.Webhooks, 'webhook.deliver');
    const forPage = (pageId: number) => hookJobs.filter((j) => j.data.payload.pageId === pageId);
    expect(forPage(withHook.id).map((j) => j.data.payload)).toEqual([{ v: 1, leadId: await leadId(withHook.id, 'hooked@example.com'), pageId: withHook.id }]);
    expect(forPage(withoutHook.id)).toHaveLength(0);
    expect(forPage(freePage.id)).toHaveLength(0);
    // A repeat records nothing more.
    await submit(withHook.slug, { email: 'HOOKED@example.com', consent: true });
    await outboxDrained();
    expect((await jobsOf(QueueName.Webhooks, 'webhook.deliver')).filter((j) => j.data.payload.pageId === withHook.id)).toHaveLength(1);
  });

  // --- stats and export ------------------------------------------------------------------------------------

  it('shows views, conversions, rate and the newest leads first to the owner only', async () => {
    const owner = await creator('pro');
    const page = await createPage(owner);
    const visitor = browser();
    for (let i = 0; i < 4; i += 1) expect((await visitor.get(`/api/page/${page.slug}`)).status).toBe(200);
    for (const email of ['first@example.com', 'second@example.com', 'third@example.com']) {
      await submit(page.slug, { email, consent: true });
    }
    const stats = await eventually(
      () => owner.browser.get(`/api/pages/${page.id}/stats`),
      (r) => r.body?.views === 4,
    );
    expect(stats.status).toBe(200);
    expect(stats.body).toEqual({
      views: 4,
      conversions: 3,
      conversionRate: 75,
      leads: [
        { id: expect.any(Number), email: 'third@example.com', createdAt: expect.any(String) },
        { id: expect.any(Number), email: 'second@example.com', createdAt: expect.any(String) },
        { id: expect.any(Number), email: 'first@example.com', createdAt: expect.any(String) },
      ],
    });
    expect(stats.body.conversionRate).toBe(conversionRate(4, 3));
    // The pages calls show the same conversions (read from leads through the ConversionsReader port).
    expect((await owner.browser.get(`/api/pages/${page.id}`)).body).toMatchObject({ views: 4, conversions: 3 });
    expect((await owner.browser.get('/api/pages')).body).toEqual([expect.objectContaining({ id: page.id, views: 4, conversions: 3 })]);
    expect(new Date(stats.body.leads[0].createdAt).toISOString()).toBe(stats.body.leads[0].createdAt);

    const other = await creator('pro');
    expect(await other.browser.get(`/api/pages/${page.id}/stats`)).toMatchObject({ status: 404, body: { message: 'Page not found' } });
    expect(await other.browser.get(`/api/pages/${page.id}/export`)).toMatchObject({ status: 404, body: { message: 'Page not found' } });
    expect(await owner.browser.get('/api/pages/99999999/stats')).toMatchObject({ status: 404, body: { message: 'Page not found' } });
    expect(await owner.browser.get('/api/pages/abc/stats')).toMatchObject({ status: 404, body: { message: 'Page not found' } });
    expect((await browser().get(`/api/pages/${page.id}/stats`)).status).toBe(401);
    expect((await browser().get(`/api/pages/${page.id}/export`)).status).toBe(401);

    // A page nobody has seen: 0 %, no division by zero.
    const fresh = await createPage(owner);
    expect((await owner.browser.get(`/api/pages/${fresh.id}/stats`)).body).toEqual({ views: 0, conversions: 0, conversionRate: 0, leads: [] });
  });

  it('exports the leads as CSV: header, ISO times, consent, slug, formulas neutralised, row count = conversions', async () => {
    const page = await createPage(pro, { title: 'My Great Guide!' });
    for (const email of ['ada@example.com', '+cmd@example.com', '-2+3@example.com']) {
      expect((await submit(page.slug, { email, consent: true })).status).toBe(200);
    }
    await submit(page.slug, { email: 'ADA@example.com', consent: true }); // a repeat: no new row
    const res = await fetch(`${origin}/api/pages/${page.id}/export`, { headers: { cookie: `plink_session=${pro.browser.cookie('plink_session')}` } });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('text/csv; charset=utf-8');
    expect(res.headers.get('content-disposition')).toBe('attachment; filename="leads-my-great-guide.csv"');
    const lines = (await res.text()).trimEnd().split('\n');
    expect(lines[0]).toBe('email,created_at,consent_at,page_slug');
    const rows = lines.slice(1).map((l) => l.split(','));
    expect(rows.map((r) => r[0])).toEqual(['ada@example.com', "'+cmd@example.com", "'-2+3@example.com"]);
    for (const [, createdAt, consentAt, slug] of rows) {
      expect(createdAt).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/);
      expect(consentAt).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/);
      expect(slug).toBe(page.slug);
    }
    expect(rows).toHaveLength(await conversions(page.id));

    // No consent column value when the page hides the checkbox; the slug names an untitled page's file.
    const hidden = await createPage(pro, { title: '', hidePrivacyPolicyCheckbox: true });
    await submit(hidden.slug, { email: 'quiet@example.com' });
    const hiddenCsv = await fetch(`${origin}/api/pages/${hidden.id}/export`, { headers: { cookie: `plink_session=${pro.browser.cookie('plink_session')}` } });
    expect(hiddenCsv.headers.get('content-disposition')).toBe(`attachment; filename="leads-${hidden.slug}.csv"`);
    expect((await hiddenCsv.text()).split('\n')[1]).toMatch(new RegExp(`^quiet@example\\.com,[^,]+,,${hidden.slug}$`));
  });

  it('streams a 100,000-lead export in flat memory, with as many rows as conversions', async () => {
    const page = await createPage(pro, { title: 'Big list' });
    await db.query(
      `insert into leads.leads (page_id, email, email_lower, consent_at, created_at)
       select $1, 'bulk' || g || '@example.com', 'bulk' || g || '@example.com', now(), now() - make_interval(secs => g)
         from generate_series(1, 100000) g`,
      [page.id],
    );
    await db.query('insert into leads.page_counters (page_id, shard, conversions) values ($1, 0, 100000)', [page.id]);

    // Retained memory, not garbage: measure the heap right after a full collection, during the download.
    setFlagsFromString('--expose-gc');
    const gc = runInNewContext('gc') as () => void;
    gc();
    const baseline = process.memoryUsage().heapUsed;
    let peak = baseline;
    let samples = 0;
    const sample = () => {
      gc();
      samples += 1;
      peak = Math.max(peak, process.memoryUsage().heapUsed);
    };
    // On a timer, and every 10th chunk read: a fast export (COPY writes 100k rows in well under a second) is
    // still measured while it runs.
    const sampler = setInterval(sample, 150);
    try {
      const res = await fetch(`${origin}/api/pages/${page.id}/export`, { headers: { cookie: `plink_session=${pro.browser.cookie('plink_session')}` } });
      expect(res.status).toBe(200);
      let newlines = 0;
      let bytes = 0;
      let lastByte = 0;
      let chunks = 0;
      for await (const chunk of res.body as unknown as AsyncIterable<Uint8Array>) {
        if (++chunks % 10 === 0) sample();
        bytes += chunk.length;
        for (let i = 0; i < chunk.length; i += 1) if (chunk[i] === 10) newlines += 1;
        lastByte = chunk[chunk.length - 1];
      }
      expect(lastByte).toBe(10);
      expect(newlines - 1).toBe(100_000); // the header, then one line per lead
      expect(newlines - 1).toBe(await conversions(page.id));
      expect(bytes).toBeGreaterThan(5_000_000);
    } finally {
      clearInterval(sampler);
    }
    expect(samples).toBeGreaterThan(3);
    // Buffering would hold every row and the whole text at once; streaming holds about one batch (~1 MB measured).
    expect(peak - baseline).toBeLessThan(20 * 1024 * 1024);
  }, 60_000);

  it('removes the leads and the counter of a deleted page (the leads worker)', async () => {
    const page = await createPage(pro);
    for (let i = 0; i < 3; i += 1) await submit(page.slug, { email: `gone${i}@example.com`, consent: true });
    expect(await leadCount(page.id)).toBe(3);
    const deleted = await pro.browser.request('DELETE', `/api/pages/${page.id}`);
    expect(deleted.status).toBeLessThan(300);
    expect(await eventually(() => leadCount(page.id), (c) => c === 0)).toBe(0);
    expect((await db.query('select 1 from leads.page_counters where page_id = $1', [page.id])).rowCount).toBe(0);
    expect(await submit(page.slug, { email: 'late@example.com', consent: true })).toMatchObject({ status: 404 });
  });

  // --- the form without JavaScript ---------------------------------------------------------------------------

  it('takes the form post without JavaScript: 303 to the thank-you state, or the page again with the error', async () => {
    const page = await createPage(pro, { thankYouHeadline: 'Welcome aboard friend' });

    const ok = await formPost(`/${page.slug}`, { email: 'nojs@example.com', consent: 'on', website: '' });
    expect(ok.status).toBe(303);
    expect(ok.headers.get('location')).toBe(`/${page.slug}?submitted=1`);
    const thanks = await fetch(`${origin}/${page.slug}?submitted=1`);
    expect(thanks.status).toBe(200);
    expect(thanks.headers.get('content-type')).toMatch(/text\/html/);
    expect(await thanks.text()).toContain('Welcome aboard friend');
    expect(await leadCount(page.id)).toBe(1);

    const short = await formPost(`/p/${page.slug}`, { email: 'nojs2@example.com', consent: 'on' });
    expect(short.status).toBe(303);
    expect(short.headers.get('location')).toBe(`/p/${page.slug}?submitted=1`);
    const long = await formPost(`/p/${pro.username}/${page.slug}`, { email: 'nojs3@example.com', consent: 'on' });
    expect(long.status).toBe(303);
    expect(long.headers.get('location')).toBe(`/p/${pro.username}/${page.slug}?submitted=1`);
    expect(await leadCount(page.id)).toBe(3);

    const bad = await formPost(`/${page.slug}`, { email: 'not an <b>email</b>', consent: 'on' });
    expect(bad.status).toBe(400);
    expect(bad.headers.get('content-type')).toMatch(/text\/html/);
    const badHtml = await bad.text();
    expect(badHtml).toContain('Please enter a valid email address');
    expect(badHtml).not.toContain('<b>email</b>');

    const noConsent = await formPost(`/${page.slug}`, { email: 'noconsent@example.com' });
    expect(noConsent.status).toBe(400);
    expect(await noConsent.text()).toContain('Please agree to the privacy policy to continue.');

    const bot = await formPost(`/${page.slug}`, { email: 'formbot@example.com', consent: 'on', website: 'spam' });
    expect(bot.status).toBe(303);
    expect(await leadCount(page.id)).toBe(3);

    const unknown = await formPost('/no-such-page-anywhere', { email: 'a@example.com', consent: 'on' });
    expect(unknown.status).toBe(404);
    expect(await unknown.text()).toContain('Page Not Found');
    expect((await formPost(`/p/someone-else/${page.slug}`, { email: 'a@example.com', consent: 'on' })).status).toBe(404);
    expect((await formPost('/dashboard', { email: 'a@example.com', consent: 'on' })).status).toBe(404);
  });

  it('keeps the API, health, the SPA and its assets reachable beside the page routes', async () => {
    expect(await browser().post('/api', { email: 'a@example.com' })).toMatchObject({ status: 404, body: { message: 'Not found' } });
    expect(await browser().get('/api/no-such-call')).toMatchObject({ status: 404, body: { message: 'Not found' } });
    expect(await browser().post('/api/no-such-call', {})).toMatchObject({ status: 404 });
    expect((await browser().get('/health')).status).toBe(200);
    const spa = await fetch(`${origin}/dashboard`);
    expect([200, 503]).toContain(spa.status); // 503 only when the SPA is not built
    if (spa.status === 200) expect(await spa.text()).toMatch(/<div id="root">/);
    const assets = join(__dirname, '../../web/dist/assets');
    const script = existsSync(assets) ? readdirSync(assets).find((f) => f.endsWith('.js')) : undefined;
    if (script) {
      const asset = await fetch(`${origin}/assets/${script}`);
      expect(asset.status).toBe(200);
      expect(asset.headers.get('content-type')).toMatch(/javascript/);
    }
  });
});
