import type { Client } from 'pg';
import { conversionRate } from '@plink/contracts';
import { leadsGateway, type Creator } from './testing/leads-gateway';

/** What a creator sees of their leads (stats, the CSV export) and their removal with the page, end to end (see leadsGateway). */
describe('leads, end to end: stats, export and removal', () => {
  const world = leadsGateway();
  const { browser, creator, createPage, submit, leadCount, conversions, eventually } = world;
  let origin: string;
  let db: Client;
  let pro: Creator;
  beforeAll(() => {
    ({ origin, db, pro } = world);
  });

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
});
