import { conversionRate } from '@plink/contracts';
import { pollUntil } from '@plink/testing';
import { LeadsTestApp, type Creator } from '../testing/leads-test-app';

/**
 * What a creator sees of their leads (stats, the CSV export) and their removal with the page (see
 * LeadsTestApp: the page's title and views come from the pages service). Views counted by visits and the
 * conversions the pages calls show are tested in the gateway.
 */
describe('leads: stats, export and removal', () => {
  let t: LeadsTestApp;
  let pro: Creator;

  beforeAll(async () => {
    t = await LeadsTestApp.start();
    await t.startWorker();
    pro = await t.creator('pro');
  });

  afterAll(async () => {
    await t?.close();
  });

  const download = (owner: Creator, pageId: number) => fetch(`${t.origin}/api/pages/${pageId}/export`, { headers: { cookie: owner.client.cookieHeader() } });

  it('shows views, conversions, rate and the newest leads first to the owner only', async () => {
    const owner = await t.creator('pro');
    const page = await t.createPage(owner);
    page.views = 4; // as the pages service counts them
    for (const email of ['first@example.com', 'second@example.com', 'third@example.com']) {
      expect((await t.submit(page.slug, { email, consent: true })).status).toBe(200);
    }
    const stats = await owner.client.get(`/api/pages/${page.id}/stats`);
    expect(stats.status).toBe(200);
    // The all-time fields as they always were (the range's series and breakdowns beside them: stats-range.int-spec).
    const { views, conversions, pending, conversionRate: rate, leads } = stats.body;
    expect({ views, conversions, pending, conversionRate: rate, leads }).toEqual({
      views: 4,
      conversions: 3,
      pending: 0,
      conversionRate: 75,
      leads: [
        { id: expect.any(Number), email: 'third@example.com', createdAt: expect.any(String), status: 'confirmed' },
        { id: expect.any(Number), email: 'second@example.com', createdAt: expect.any(String), status: 'confirmed' },
        { id: expect.any(Number), email: 'first@example.com', createdAt: expect.any(String), status: 'confirmed' },
      ],
      blocked: { token: 0, timing: 0, honeypot: 0, disposable: 0, noMx: 0, rateLimit: 0 },
    });
    expect(stats.body.conversionRate).toBe(conversionRate(4, 3));
    expect(new Date(stats.body.leads[0].createdAt).toISOString()).toBe(stats.body.leads[0].createdAt);

    const other = await t.creator('pro');
    expect(await other.client.get(`/api/pages/${page.id}/stats`)).toMatchObject({ status: 404, body: { message: 'Page not found' } });
    expect(await other.client.get(`/api/pages/${page.id}/export`)).toMatchObject({ status: 404, body: { message: 'Page not found' } });
    expect(await owner.client.get('/api/pages/99999999/stats')).toMatchObject({ status: 404, body: { message: 'Page not found' } });
    expect(await owner.client.get('/api/pages/abc/stats')).toMatchObject({ status: 404, body: { message: 'Page not found' } });
    expect((await t.client().get(`/api/pages/${page.id}/stats`)).status).toBe(401);
    expect((await t.client().get(`/api/pages/${page.id}/export`)).status).toBe(401);

    // A page nobody has seen: 0 %, no division by zero.
    const fresh = await t.createPage(owner);
    expect((await owner.client.get(`/api/pages/${fresh.id}/stats`)).body).toMatchObject({
      views: 0,
      conversions: 0,
      pending: 0,
      conversionRate: 0,
      leads: [],
      totals: { views: 0, leads: 0 },
      blocked: { token: 0, timing: 0, honeypot: 0, disposable: 0, noMx: 0, rateLimit: 0 },
    });
  });

  it('exports the leads as CSV: header, ISO times, consent, slug, formulas neutralised, row count = conversions', async () => {
    const page = await t.createPage(pro, { title: 'My Great Guide!' });
    for (const email of ['ada@example.com', '+cmd@example.com', '-2+3@example.com']) {
      expect((await t.submit(page.slug, { email, consent: true })).status).toBe(200);
    }
    await t.submit(page.slug, { email: 'ADA@example.com', consent: true }); // a repeat: no new row
    const res = await download(pro, page.id);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('text/csv; charset=utf-8');
    expect(res.headers.get('content-disposition')).toBe('attachment; filename="leads-my-great-guide.csv"');
    const lines = (await res.text()).trimEnd().split('\n');
    expect(lines[0]).toBe('email,created_at,consent_at,page_slug,status,confirmed_at,consent_version,signup_ip,source,referrer,ref,source_param,utm_source,utm_medium,utm_campaign,device');
    const rows = lines.slice(1).map((l) => l.split(','));
    expect(rows.map((r) => r[0])).toEqual(['ada@example.com', "'+cmd@example.com", "'-2+3@example.com"]);
    for (const [, createdAt, consentAt, slug, status, confirmedAt, consentVersion, signupIp] of rows) {
      expect(createdAt).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/);
      expect(consentAt).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/);
      expect(slug).toBe(page.slug);
      // No double opt-in on this page: every lead is confirmed, and nobody confirmed by e-mail.
      expect([status, confirmedAt]).toEqual(['confirmed', '']);
      expect(consentVersion).toMatch(/^[0-9a-f]{64}$/);
      expect(signupIp).toBe('127.0.0.1');
    }
    expect(rows).toHaveLength(await t.conversions(page.id));

    // No consent column value when the page hides the checkbox; the slug names an untitled page's file.
    const hidden = await t.createPage(pro, { title: '', hidePrivacyPolicyCheckbox: true });
    await t.submit(hidden.slug, { email: 'quiet@example.com' });
    const hiddenCsv = await download(pro, hidden.id);
    expect(hiddenCsv.headers.get('content-disposition')).toBe(`attachment; filename="leads-${hidden.slug}.csv"`);
    expect((await hiddenCsv.text()).split('\n')[1]).toMatch(new RegExp(`^quiet@example\\.com,[^,]+,,${hidden.slug},confirmed,,,127\\.0\\.0\\.1,,,,,,,,desktop$`));
  });

  it('removes the leads and the counter of a deleted page (the leads worker)', async () => {
    const page = await t.createPage(pro);
    for (let i = 0; i < 3; i += 1) await t.submit(page.slug, { email: `gone${i}@example.com`, consent: true });
    expect(await t.leadCount(page.id)).toBe(3);
    await t.pages.delete(page);
    expect(await pollUntil(() => t.leadCount(page.id), (c) => c === 0)).toBe(0);
    expect((await t.db.query('select 1 from leads.page_counters where page_id = $1', [page.id])).rowCount).toBe(0);
    expect(await t.submit(page.slug, { email: 'late@example.com', consent: true })).toMatchObject({ status: 404 });
  });
});
