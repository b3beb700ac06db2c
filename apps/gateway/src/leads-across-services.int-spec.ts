import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import type { Pool } from 'pg';
import type { CaughtMail, SmtpCatcher } from '@plink/testing';
import { leadsGateway, okAnswer, type Creator } from './testing/leads-gateway';

/**
 * Leads where they meet the other services, through the whole gateway (see leadsGateway); the leads service's
 * own behaviour is tested in its lib (libs/leads, LeadsTestApp). Here: the e-mail a lead's job has the
 * notifications service send, pages' own calls reaching the leads read model at once, the views pages counts
 * and the conversions it shows, a deleted page's leads removed, the thank-you page a form post leads to (rendered by pages), and the page
 * routes beside the API, health and the SPA.
 */
describe('leads, across the services', () => {
  const world = leadsGateway();
  const { browser, tag, createPage, submit, formPost, leadCount, outboxDrained, eventually } = world;
  let origin: string;
  let pro: Creator;
  let smtp: SmtpCatcher;
  let db: Pool;
  beforeAll(() => {
    ({ origin, pro, smtp, db } = world);
  });

  it('takes a sign-up with the form token the served page carries, sent 2 s after the page', async () => {
    const page = await createPage(pro, {});
    const other = await createPage(pro, {});
    // What a visitor (or the README's curl walk-through) does: fetch the page, read formToken, wait, submit.
    const tokenOf = async (slug: string) => /name="formToken" value="([^"]+)"/.exec(await (await fetch(`${origin}/${slug}`)).text())?.[1];
    const formToken = await tokenOf(page.slug);
    const othersToken = await tokenOf(other.slug);
    expect(formToken).toMatch(/^v1\./);
    await new Promise((r) => setTimeout(r, 2_100));
    expect(await submit(page.slug, { email: 'patient@example.com', consent: true, formToken })).toMatchObject(okAnswer);
    // Another page's token is no token for this one: answered alike, not stored.
    expect(await submit(page.slug, { email: 'borrowed@example.com', consent: true, formToken: othersToken })).toMatchObject(okAnswer);
    expect(await leadCount(page.id)).toBe(1);
    const stats = await eventually(() => pro.browser.get(`/api/pages/${page.id}/stats`), (r) => r.body.blocked?.token === 1);
    expect(stats.body).toMatchObject({ conversions: 1, blocked: { token: 1, timing: 0 } });
  });

  it('e-mails the file link with the page title and nothing the visitor typed; a bot caught by the honeypot gets nothing', async () => {
    const page = await createPage(pro, { title: 'The <Photo> Guide & more', fileUrl: 'https://files.example/guide.pdf?x=1&y=2' });
    const visitor = "o'brien+tricky-note@example.com";
    expect((await submit(page.slug, { email: 'bot@example.com', consent: true, website: 'https://spam.example' })).status).toBe(200);
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
    await outboxDrained();
    expect(smtp.mailsTo('bot@example.com')).toHaveLength(0);
  });

  it("has pages' own calls reach the leads read model at once: a new page, a new slug, a deleted page", async () => {
    const page = await createPage(pro);
    expect(await submit(page.slug, { email: 'first@example.com', consent: true })).toMatchObject(okAnswer);
    const newSlug = `moved-${tag()}`;
    expect((await pro.browser.request('PUT', `/api/pages/${page.id}`, { slug: newSlug, thankYouHeadline: 'Welcome aboard' })).status).toBe(200);
    expect((await submit(page.slug, { email: 'late@example.com', consent: true })).status).toBe(404);
    expect(await submit(newSlug, { email: 'after@example.com', consent: true })).toMatchObject({ status: 200, body: { thankYouHeadline: 'Welcome aboard' } });
    expect((await pro.browser.request('DELETE', `/api/pages/${page.id}`)).status).toBe(200);
    expect((await submit(newSlug, { email: 'gone@example.com', consent: true })).status).toBe(404);
    // In the Trash its leads stay; restored, it takes sign-ups again at once, with them.
    expect(await leadCount(page.id)).toBe(2);
    expect((await pro.browser.post(`/api/pages/${page.id}/restore`)).status).toBe(200);
    expect(await submit(newSlug, { email: 'back@example.com', consent: true })).toMatchObject({ status: 200, body: { thankYouHeadline: 'Welcome aboard' } });
    expect(await leadCount(page.id)).toBe(3);
  });

  it("shows the views pages counted in the stats, and the conversions leads counted in the pages calls; a deleted page's leads go", async () => {
    const owner = await world.creator('pro');
    const page = await createPage(owner);
    const visitor = browser();
    for (let i = 0; i < 4; i += 1) expect((await visitor.get(`/api/page/${page.slug}`)).status).toBe(200);
    for (const email of ['first@example.com', 'second@example.com', 'third@example.com']) await submit(page.slug, { email, consent: true });
    const stats = await eventually(
      () => owner.browser.get(`/api/pages/${page.id}/stats`),
      (r) => r.body?.views === 4,
    );
    expect(stats.body).toMatchObject({ views: 4, conversions: 3, conversionRate: 75 });
    // Today in the series: the views and visitors pages counted per day (PageVisitsReader port), the leads of the day.
    const today = new Date().toISOString().slice(0, 10);
    const series = await eventually(
      () => owner.browser.get(`/api/pages/${page.id}/stats?from=${today}&to=${today}`),
      (r) => r.body?.series?.[0]?.views === 4,
    );
    expect(series.body.series).toEqual([{ day: today, views: 4, uniques: 1, leads: 3 }]);
    expect(series.body.breakdowns.devices).toEqual([{ value: 'desktop', views: 4, leads: 3, conversionRate: 75 }]);
    // The pages calls show the same conversions (read from leads through the ConversionsReader port).
    expect((await owner.browser.get(`/api/pages/${page.id}`)).body).toMatchObject({ views: 4, conversions: 3 });
    expect((await owner.browser.get('/api/pages')).body).toEqual([expect.objectContaining({ id: page.id, views: 4, conversions: 3 })]);

    // In the Trash its leads stay (a restore brings the page back with them)…
    expect((await owner.browser.request('DELETE', `/api/pages/${page.id}`)).status).toBe(200);
    expect(await leadCount(page.id)).toBe(3);
    // …and deleting it forever through the pages service has the leads worker remove its leads and counter.
    expect((await owner.browser.request('DELETE', `/api/trash/${page.id}`)).status).toBe(200);
    expect(await eventually(() => leadCount(page.id), (c) => c === 0)).toBe(0);
    // The counter goes in the statement after the last leads (and the bot shield's counts with it).
    const counted = async () =>
      ((await db.query('select 1 from leads.page_counters where page_id = $1', [page.id])).rowCount ?? 0) +
      ((await db.query('select 1 from leads.blocked_submissions where page_id = $1', [page.id])).rowCount ?? 0);
    expect(await eventually(counted, (n) => n === 0)).toBe(0);
  });

  it('leads a form post without JavaScript to the thank-you state of the page, as pages renders it', async () => {
    const page = await createPage(pro, { thankYouHeadline: 'Welcome aboard friend' });
    const ok = await formPost(`/${page.slug}`, { email: 'nojs@example.com', consent: 'on', website: '' });
    expect(ok.status).toBe(303);
    expect(ok.headers.get('location')).toBe(`/${page.slug}?submitted=1`);
    const thanks = await fetch(`${origin}/${page.slug}?submitted=1`);
    expect(thanks.status).toBe(200);
    expect(thanks.headers.get('content-type')).toMatch(/text\/html/);
    expect(await thanks.text()).toContain('Welcome aboard friend');
    expect(await leadCount(page.id)).toBe(1);
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
