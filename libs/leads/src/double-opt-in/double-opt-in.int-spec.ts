import { QueueName, type JobPayload } from '@plink/contracts';
import { unseal } from '@plink/crypto';
import { LeadClock } from '../model/lead-clock';
import { LeadsTestApp, type Creator } from '../testing/leads-test-app';
import { OptInSweepService } from './opt-in-sweep.service';

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;

/**
 * Double opt-in as visitors and creators meet it on the leads service: a pending sign-up and its confirmation
 * e-mail; the link's page, which a GET never confirms; the Confirm button (form post and JSON), which confirms
 * once and only then records the file e-mail and the webhook; the 10-minute throttles of a repeated sign-up
 * (pending: the confirmation again; confirmed, on any page: the file again); the reminder and the expiry run by
 * the sweep on a controlled clock; the counts, the lead list and the CSV. The e-mails as sent: notifications.
 */
describe('leads: double opt-in', () => {
  let t: LeadsTestApp;
  let pro: Creator;
  let clock: LeadClock;
  /** How far the test has moved the service's clock. */
  let shift = 0;

  beforeAll(async () => {
    t = await LeadsTestApp.start();
    await t.startWorker();
    pro = await t.creator('pro');
    clock = t.app.get(LeadClock, { strict: false });
    jest.spyOn(clock, 'now').mockImplementation(() => new Date(Date.now() + shift));
    const workerClock = t.worker!.get(LeadClock, { strict: false });
    jest.spyOn(workerClock, 'now').mockImplementation(() => new Date(Date.now() + shift));
  });

  afterAll(async () => {
    await t?.close();
  });

  // Each test starts at the real time (leads of pages without double opt-in are dated by the database).
  beforeEach(() => {
    shift = 0;
  });

  const jobs = async <N extends 'email.lead-confirmation' | 'email.file-delivery'>(name: N, leadId: number): Promise<JobPayload<N>[]> => {
    await t.outboxDrained();
    return (await t.jobsOf(QueueName.Email, name)).map((j) => j.data.payload as JobPayload<N>).filter((p) => p.leadId === leadId);
  };
  const webhooks = async (leadId: number) => {
    await t.outboxDrained();
    return (await t.jobsOf(QueueName.Webhooks, 'webhook.deliver-many'))
      .flatMap((j) => (j.data.payload as JobPayload<'webhook.deliver-many'>).jobs.map((m) => m.payload))
      .filter((p) => p.leadId === leadId);
  };
  /** The token of a confirmation e-mail, as the notifications service opens it for the link. */
  const tokenOf = (job: JobPayload<'email.lead-confirmation'>) => unseal(t.config.sessionSecret, job.sealedToken);
  const leadsWithId = async (id: number) => Number((await t.db.query('select count(*) from leads.leads where id = $1', [id])).rows[0].count);
  const leadRow = async (id: number) =>
    (await t.db.query('select status, confirmed_at, confirm_ip, confirm_user_agent from leads.leads where id = $1', [id])).rows[0];

  it('keeps a sign-up pending and e-mails the Confirm link: no conversion, no file e-mail, no webhook yet', async () => {
    const page = await t.createPage(pro, {
      title: 'Photo Guide',
      doubleOptIn: true,
      fileUrl: 'https://files.example/guide.pdf',
      webhookUrl: 'https://hooks.example/x',
      deliveryEmail: { senderName: 'Ana Lima', replyTo: 'ana@creator.example', subject: null, bodyHtml: null },
    });
    expect((await t.submit(page.slug, { email: 'Visitor@Example.com', consent: true })).status).toBe(200);
    const id = await t.leadId(page.id, 'visitor@example.com');
    expect(await leadRow(id)).toEqual({ status: 'pending', confirmed_at: null, confirm_ip: null, confirm_user_agent: null });
    expect(await t.conversions(page.id)).toBe(0);
    const [mail, ...more] = await jobs('email.lead-confirmation', id);
    expect(more).toEqual([]);
    expect(mail).toEqual({
      v: 1,
      leadId: id,
      to: 'Visitor@Example.com',
      page: { id: page.id, title: 'Photo Guide' },
      senderName: 'Ana Lima',
      replyTo: 'ana@creator.example',
      sealedToken: expect.any(String),
      reminder: false,
    });
    // Only the token's hash is kept.
    const token = tokenOf(mail);
    expect(token.length).toBeGreaterThanOrEqual(40);
    const stored = await t.db.query('select token_hash from leads.confirm_tokens where lead_id = $1', [id]);
    expect(stored.rows).toHaveLength(1);
    expect(stored.rows[0].token_hash).not.toContain(token);
    expect(await jobs('email.file-delivery', id)).toEqual([]);
    expect(await webhooks(id)).toEqual([]);
  });

  it('confirms only on the POST of the Confirm button: a GET of the link (a mail scanner) changes nothing', async () => {
    const page = await t.createPage(pro, { title: 'Guide <2>', doubleOptIn: true, fileUrl: 'https://files.example/g.pdf', webhookUrl: 'https://hooks.example/y' });
    await t.submit(page.slug, { email: 'scanned@example.com', consent: true });
    const id = await t.leadId(page.id, 'scanned@example.com');
    const token = tokenOf((await jobs('email.lead-confirmation', id))[0]);

    for (const method of ['GET', 'HEAD', 'GET'] as const) {
      const res = await t.client().request(method, `/confirm/${token}`);
      expect(res.status).toBe(200);
    }
    const asked = await t.client().get(`/confirm/${token}`);
    expect(asked.headers.get('content-type')).toBe('text/html; charset=utf-8');
    expect(asked.headers.get('cache-control')).toBe('no-store');
    expect(asked.text).toContain('<h1>Confirm your e-mail</h1>');
    expect(asked.text).toContain('Guide &lt;2&gt;');
    expect(asked.text).toContain(`<form method="post" action="/confirm/${token}"><button type="submit">Confirm</button></form>`);
    expect(asked.text).not.toContain('<script');
    expect((await leadRow(id)).status).toBe('pending');
    expect(await t.conversions(page.id)).toBe(0);
    expect(await jobs('email.file-delivery', id)).toEqual([]);
    expect(await webhooks(id)).toEqual([]);

    // The button: confirmed with the time, address and browser; counted; the file e-mail, then the webhook.
    const before = Date.now();
    const confirmed = await t.client({ 'user-agent': 'TestBrowser/1.0' }).post(`/api/confirm/${token}`);
    expect(confirmed).toMatchObject({ status: 200, body: { success: true, fileUrl: 'https://files.example/g.pdf' } });
    const row = await leadRow(id);
    expect(row).toMatchObject({ status: 'confirmed', confirm_ip: '127.0.0.1', confirm_user_agent: 'TestBrowser/1.0' });
    expect(new Date(row.confirmed_at).getTime()).toBeGreaterThanOrEqual(before - 1000);
    expect(await t.conversions(page.id)).toBe(1);
    // The consent record shows the confirmation beside the sign-up.
    const record = await pro.client.get(`/api/pages/${page.id}/leads/${id}/consent`);
    expect(record.body.confirmation).toEqual({ at: new Date(row.confirmed_at).toISOString(), ip: '127.0.0.1', userAgent: 'TestBrowser/1.0' });
    expect(await jobs('email.file-delivery', id)).toEqual([expect.objectContaining({ leadId: id, to: 'scanned@example.com', page: expect.objectContaining({ fileUrl: 'https://files.example/g.pdf' }) })]);
    const [hook, ...moreHooks] = await webhooks(id);
    expect(moreHooks).toEqual([]);
    expect(hook).toMatchObject({ leadId: id, pageId: page.id, email: 'scanned@example.com', consentAt: expect.any(String), createdAt: expect.any(String) });

    // Again: the same answer, nothing sent or counted twice; the link's page now shows the confirmed state.
    expect(await t.client().post(`/api/confirm/${token}`)).toMatchObject({ status: 200, body: { success: true, fileUrl: 'https://files.example/g.pdf' } });
    const formAgain = await t.formPost(`/confirm/${token}`, {});
    expect(formAgain.status).toBe(200);
    const html = await formAgain.text();
    expect(html).toContain('<h1>Your e-mail is confirmed</h1>');
    expect(html).toContain('<a href="https://files.example/g.pdf" rel="noopener noreferrer">Open your file</a>');
    expect(await t.conversions(page.id)).toBe(1);
    expect(await jobs('email.file-delivery', id)).toHaveLength(1);
    expect(await webhooks(id)).toHaveLength(1);
    expect((await t.client().get(`/confirm/${token}`)).text).toContain('Open your file');
  });

  it('confirms from the form without JavaScript and shows the file link at once', async () => {
    const page = await t.createPage(pro, { doubleOptIn: true, fileUrl: '/uploads/u1/file-abcdefgh.pdf' });
    await t.submit(page.slug, { email: 'nojs@example.com', consent: true });
    const id = await t.leadId(page.id, 'nojs@example.com');
    const token = tokenOf((await jobs('email.lead-confirmation', id))[0]);
    const res = await t.formPost(`/confirm/${token}`, {});
    expect(res.status).toBe(200);
    const html = await res.text();
    expect(html).toContain('Your e-mail is confirmed');
    expect(html).toContain(`href="${t.config.appOrigin}/uploads/u1/file-abcdefgh.pdf"`);
    expect((await leadRow(id)).status).toBe('confirmed');
  });

  it('answers an unknown token with a clear message: 404 JSON for the call, a page for the link', async () => {
    const bad = 'A'.repeat(43);
    expect(await t.client().post(`/api/confirm/${bad}`)).toMatchObject({
      status: 404,
      body: { message: 'This confirmation link is not valid or has expired. Please sign up again.' },
    });
    const page = await t.client().get(`/confirm/${bad}`);
    expect(page.status).toBe(404);
    expect(page.text).toContain('This confirmation link is not valid or has expired.');
    expect((await t.formPost('/confirm/short', {})).status).toBe(404);
  });

  it('re-sends the confirmation to a pending address signing up again, at most once per 10 minutes, and stores no second lead', async () => {
    const page = await t.createPage(pro, { doubleOptIn: true, fileUrl: 'https://files.example/r.pdf' });
    await t.submit(page.slug, { email: 'again@example.com', consent: true });
    const id = await t.leadId(page.id, 'again@example.com');
    await t.submit(page.slug, { email: 'AGAIN@example.com', consent: true });
    expect(await jobs('email.lead-confirmation', id)).toHaveLength(1);
    shift += 11 * MINUTE;
    expect((await t.submit(page.slug, { email: 'again@example.com', consent: true })).status).toBe(200);
    await t.submit(page.slug, { email: 'again@example.com', consent: true });
    const sent = await jobs('email.lead-confirmation', id);
    expect(sent).toHaveLength(2);
    expect(await t.leadCount(page.id)).toBe(1);
    // Each e-mail has its own link, and both work: the first confirms, the second then answers the same.
    expect(tokenOf(sent[0])).not.toBe(tokenOf(sent[1]));
    expect((await t.client().post(`/api/confirm/${tokenOf(sent[0])}`)).status).toBe(200);
    expect((await t.client().post(`/api/confirm/${tokenOf(sent[1])}`)).body).toEqual({ success: true, fileUrl: 'https://files.example/r.pdf' });
    expect(await jobs('email.file-delivery', id)).toHaveLength(1);
  });

  it('e-mails a returning confirmed visitor the file again, at most once per 10 minutes per address and page, with or without double opt-in', async () => {
    const page = await t.createPage(pro, { fileUrl: 'https://files.example/back.pdf' });
    await t.submit(page.slug, { email: 'back@example.com', consent: true });
    const id = await t.leadId(page.id, 'back@example.com');
    expect(await jobs('email.file-delivery', id)).toHaveLength(1);
    await t.submit(page.slug, { email: 'back@example.com', consent: true });
    expect(await jobs('email.file-delivery', id)).toHaveLength(1);
    shift += 11 * MINUTE;
    await t.submit(page.slug, { email: 'Back@Example.com', consent: true });
    await t.submit(page.slug, { email: 'back@example.com', consent: true });
    const sent = await jobs('email.file-delivery', id);
    expect(sent).toHaveLength(2);
    expect(sent[1]).toMatchObject({ to: 'back@example.com', leadId: id });
    expect(await t.leadCount(page.id)).toBe(1);
    expect(await t.conversions(page.id)).toBe(1);
    // The same address on another page is that page's business.
    const other = await t.createPage(pro, { fileUrl: 'https://files.example/other.pdf' });
    await t.submit(other.slug, { email: 'back@example.com', consent: true });
    expect(await jobs('email.file-delivery', await t.leadId(other.id, 'back@example.com'))).toHaveLength(1);
    // A page without a file sends nothing again.
    const noFile = await t.createPage(pro);
    await t.submit(noFile.slug, { email: 'back@example.com', consent: true });
    shift += 11 * MINUTE;
    await t.submit(noFile.slug, { email: 'back@example.com', consent: true });
    expect(await jobs('email.file-delivery', await t.leadId(noFile.id, 'back@example.com'))).toEqual([]);

    // A confirmed lead of a double opt-in page: the file again too (not another confirmation).
    const optIn = await t.createPage(pro, { doubleOptIn: true, fileUrl: 'https://files.example/doi.pdf' });
    await t.submit(optIn.slug, { email: 'doi@example.com', consent: true });
    const doi = await t.leadId(optIn.id, 'doi@example.com');
    await t.client().post(`/api/confirm/${tokenOf((await jobs('email.lead-confirmation', doi))[0])}`);
    await t.submit(optIn.slug, { email: 'doi@example.com', consent: true });
    expect(await jobs('email.file-delivery', doi)).toHaveLength(1);
    shift += 11 * MINUTE;
    await t.submit(optIn.slug, { email: 'doi@example.com', consent: true });
    expect(await jobs('email.file-delivery', doi)).toHaveLength(2);
    expect(await jobs('email.lead-confirmation', doi)).toHaveLength(1);
  });

  it('reminds once after 48 hours and removes the sign-up after 7 days, by the sweep on the clock', async () => {
    const page = await t.createPage(pro, { doubleOptIn: true });
    await t.submit(page.slug, { email: 'later@example.com', consent: true });
    const id = await t.leadId(page.id, 'later@example.com');
    const first = tokenOf((await jobs('email.lead-confirmation', id))[0]);
    const sweep = t.worker!.get(OptInSweepService, { strict: false });
    const mine = async () => (await jobs('email.lead-confirmation', id)).map((j) => j.reminder).sort();

    shift += 47 * HOUR;
    await sweep.execute();
    expect(await mine()).toEqual([false]);
    shift += 2 * HOUR;
    expect((await sweep.execute()).reminded).toBeGreaterThanOrEqual(1);
    expect(await mine()).toEqual([false, true]);
    await sweep.execute();
    shift += 2 * DAY;
    await sweep.execute();
    expect(await mine()).toEqual([false, true]);
    expect(await leadsWithId(id)).toBe(1);

    // 7 days: gone, and its links with it (the link's page says so).
    shift += 3 * DAY;
    const { expired } = await sweep.execute();
    expect(expired).toBeGreaterThanOrEqual(1);
    expect(await leadsWithId(id)).toBe(0);
    expect((await t.db.query('select count(*)::int as n from leads.confirm_tokens where lead_id = $1', [id])).rows[0].n).toBe(0);
    expect((await t.client().get(`/confirm/${first}`)).status).toBe(404);
    expect((await t.client().post(`/api/confirm/${first}`)).status).toBe(404);
    // The visitor may sign up again: a new pending lead and a new e-mail.
    await t.submit(page.slug, { email: 'later@example.com', consent: true });
    expect(await t.leadId(page.id, 'later@example.com')).toBeGreaterThan(id);
  });

  it('runs the sweep as a scheduled job of the leads worker', async () => {
    const schedulers = await t.queue(QueueName.Leads).getJobSchedulers();
    expect(schedulers.map((s) => [s.name, s.pattern])).toContainEqual(['leads.opt-in-sweep', '*/15 * * * *']);
  });

  it('counts confirmed leads as conversions and shows pending ones apart: stats, lead list and CSV', async () => {
    const page = await t.createPage(pro, { doubleOptIn: true });
    page.views = 10;
    for (const email of ['one@example.com', 'two@example.com', 'three@example.com']) await t.submit(page.slug, { email, consent: true });
    const two = await t.leadId(page.id, 'two@example.com');
    await t.client().post(`/api/confirm/${tokenOf((await jobs('email.lead-confirmation', two))[0])}`);
    const stats = await pro.client.get(`/api/pages/${page.id}/stats`);
    expect(stats.body).toMatchObject({ views: 10, conversions: 1, pending: 2, conversionRate: 10 });
    expect(stats.body.leads.map((l: { email: string; status: string }) => [l.email, l.status])).toEqual([
      ['three@example.com', 'pending'],
      ['two@example.com', 'confirmed'],
      ['one@example.com', 'pending'],
    ]);
    const csv = await fetch(`${t.origin}/api/pages/${page.id}/export`, { headers: { cookie: pro.client.cookieHeader() } });
    const lines = (await csv.text()).trimEnd().split('\n');
    expect(lines[0]).toBe('email,created_at,consent_at,page_slug,status,confirmed_at,consent_version,signup_ip,source,referrer,ref,source_param,utm_source,utm_medium,utm_campaign,device');
    const rows = lines.slice(1).map((l) => l.split(','));
    expect(rows.map((r) => [r[0], r[4], r[5] === '' ? '' : 'time'])).toEqual([
      ['one@example.com', 'pending', ''],
      ['two@example.com', 'confirmed', 'time'],
      ['three@example.com', 'pending', ''],
    ]);
    // A pending sign-up keeps its proof of consent like any other.
    for (const row of rows) expect([row[6], row[7]]).toEqual([expect.stringMatching(/^[0-9a-f]{64}$/), '127.0.0.1']);
    expect(rows[1][5]).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/);
  });
});
