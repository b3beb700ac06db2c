import { LEADS_PAGE_SIZE, QueueName, type JobPayload } from '@plink/contracts';
import { unseal } from '@plink/crypto';
import { LeadsTestApp, type Creator } from '../testing/leads-test-app';
import { CaptureLeadService } from '../use-cases/capture-lead.service';

const PHONE = 'Mozilla/5.0 (iPhone; CPU iPhone OS 18_1 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/18.1 Mobile/15E148 Safari/604.1';
const DAY_MS = 86_400_000;
const dayOf = (ms: number) => new Date(ms).toISOString().slice(0, 10);

/** The stats' range: a series per UTC day, totals with the change, breakdowns by source; the paginated leads list. */
describe('leads: stats over a range, and the leads list', () => {
  let t: LeadsTestApp;
  let owner: Creator;

  beforeAll(async () => {
    t = await LeadsTestApp.start();
    owner = await t.creator('pro');
  });

  afterAll(async () => {
    await t?.close();
  });

  it('answers every day of the range with views, visitors and leads, totals against the range before, and breakdowns', async () => {
    const page = await t.createPage(owner);
    const today = dayOf(Date.now());
    const yesterday = dayOf(Date.now() - DAY_MS);
    const weekAgo = dayOf(Date.now() - 7 * DAY_MS);
    // As the pages service counted them: today 10 views (6 visitors), yesterday 4 (4), a week ago 5 (5).
    t.pages.counted.set(page.id, {
      days: [
        { day: weekAgo, views: 5, uniques: 5 },
        { day: yesterday, views: 4, uniques: 4 },
        { day: today, views: 10, uniques: 6 },
      ],
      sources: [
        { kind: 'referrer', value: 'news.example', views: 8 },
        { kind: 'referrer', value: 'social.example', views: 2 },
        { kind: 'utm_campaign', value: 'spring', views: 3 },
        { kind: 'utm_source', value: 'newsletter', views: 3 },
        { kind: 'device', value: 'desktop', views: 12 },
        { kind: 'device', value: 'phone', views: 2 },
      ],
    });
    await t.submit(page.slug, { email: 'a@example.com', consent: true, referrer: 'https://news.example/1', query: '?utm_source=newsletter&utm_campaign=spring' });
    await t.submit(page.slug, { email: 'b@example.com', consent: true, referrer: 'https://news.example/2' }, t.client({ 'user-agent': PHONE }));

    const res = await owner.client.get(`/api/pages/${page.id}/stats?from=${yesterday}&to=${today}`);
    expect(res.status).toBe(200);
    expect(res.body.range).toEqual({ from: yesterday, to: today });
    expect(res.body.series).toEqual([
      { day: yesterday, views: 4, uniques: 4, leads: 0 },
      { day: today, views: 10, uniques: 6, leads: 2 },
    ]);
    expect(res.body.totals).toEqual({
      views: 14,
      uniques: 10,
      leads: 2,
      leadsWithoutVisit: { api: 0, html: 0 },
      conversionRate: 14.3,
      visitorConversionRate: 20,
      previous: { views: 0, uniques: 0, leads: 0 },
      change: { views: null, uniques: null, leads: null },
    });
    expect(res.body.breakdowns.referrers).toEqual([
      { value: 'news.example', views: 8, leads: 2, conversionRate: 25 },
      { value: 'social.example', views: 2, leads: 0, conversionRate: 0 },
    ]);
    expect(res.body.breakdowns.utmCampaigns).toEqual([{ value: 'spring', views: 3, leads: 1, conversionRate: 33.3 }]);
    expect(res.body.breakdowns.utmSources).toEqual([{ value: 'newsletter', views: 3, leads: 1, conversionRate: 33.3 }]);
    expect(res.body.breakdowns.devices).toEqual([
      { value: 'desktop', views: 12, leads: 1, conversionRate: 8.3 },
      { value: 'phone', views: 2, leads: 1, conversionRate: 50 },
    ]);
    // The existing fields stay as they were.
    expect(res.body).toMatchObject({ conversions: 2, leads: [{ email: 'b@example.com' }, { email: 'a@example.com' }] });

    // Eight days: the week-ago day is in, and the eight days before it are the previous range (nothing then).
    const week = (await owner.client.get(`/api/pages/${page.id}/stats?from=${weekAgo}&to=${today}`)).body;
    expect(week.series).toHaveLength(8);
    expect(week.totals).toMatchObject({ views: 19, uniques: 15, leads: 2 });
    // The day after the week-ago day alone, against the week-ago day: views 0 vs 5 → -100 %.
    const next = dayOf(Date.now() - 6 * DAY_MS);
    expect((await owner.client.get(`/api/pages/${page.id}/stats?from=${next}&to=${next}`)).body.totals.change).toEqual({ views: -100, uniques: -100, leads: null });

    // Without a range: the last 30 days.
    const plain = (await owner.client.get(`/api/pages/${page.id}/stats`)).body;
    expect(plain.series).toHaveLength(30);
    expect(plain.range.to).toBe(today);
    for (const bad of ['from=2026-13-01', `from=${today}&to=${yesterday}`, 'from=1990-01-01&to=2026-01-01', 'to=yesterday']) {
      expect((await owner.client.get(`/api/pages/${page.id}/stats?${bad}`)).status).toBe(400);
    }
  });

  it('counts in the conversion rates only leads of counted visits, shows the others apart, and never passes 100 %', async () => {
    const page = await t.createPage(owner);
    const today = dayOf(Date.now());
    // The pages service counted 4 views of 2 visitors (the page and the embedded form together).
    page.views = 4;
    t.pages.counted.set(page.id, { days: [{ day: today, views: 4, uniques: 2 }], sources: [{ kind: 'utm_source', value: 'embed', views: 1 }] });
    // Through counted visits: two on the page, one in embed.js on a blog.
    await t.submit(page.slug, { email: 'page1@example.com', consent: true });
    await t.submit(page.slug, { email: 'page2@example.com', consent: true });
    await t.submit(page.slug, { email: 'embedded@example.com', consent: true }, t.client({ origin: 'https://blog.example' }));
    // Without one: three added by the owner's automation tool, and one from the plain-HTML form on another site,
    // confirmed by its e-mail as that form asks.
    const capture = t.app.get(CaptureLeadService);
    const submission = await capture.findPage(page.slug);
    for (const email of ['tool1@example.com', 'tool2@example.com', 'tool3@example.com']) expect(await capture.captureFromApi(submission, email, true)).toBe(true);
    const plain = await t.formPost(`/${page.slug}`, { email: 'plain@example.com', consent: 'on', embed: 'html' }, { origin: 'https://shop.example' });
    expect(plain.status).toBeLessThan(400);
    const plainId = await t.leadId(page.id, 'plain@example.com');
    await t.outboxDrained();
    const [mail] = (await t.jobsOf(QueueName.Email, 'email.lead-confirmation'))
      .map((j) => j.data.payload as JobPayload<'email.lead-confirmation'>)
      .filter((p) => p.leadId === plainId);
    expect((await t.client().post(`/api/confirm/${unseal(t.config.sessionSecret, mail.sealedToken)}`)).status).toBe(200);

    const channels = await t.db.query<{ email: string; channel: string }>('select email, channel from leads.leads where page_id = $1 order by email', [page.id]);
    expect(Object.fromEntries(channels.rows.map((r) => [r.email, r.channel]))).toEqual({
      'embedded@example.com': 'embed',
      'page1@example.com': 'page',
      'page2@example.com': 'page',
      'plain@example.com': 'html',
      'tool1@example.com': 'api',
      'tool2@example.com': 'api',
      'tool3@example.com': 'api',
    });

    const stats = (await owner.client.get(`/api/pages/${page.id}/stats?from=${today}&to=${today}`)).body;
    // 7 leads, 3 of them through the 2 visitors: 150 % by the quotient, shown as 100 %; per view 3 of 4.
    expect(stats.totals).toMatchObject({ views: 4, uniques: 2, leads: 7, leadsWithoutVisit: { api: 3, html: 1 }, conversionRate: 75, visitorConversionRate: 100 });
    expect(stats.series).toEqual([{ day: today, views: 4, uniques: 2, leads: 7 }]);
    // Every lead stays a conversion; the rate is of the visits' (3 ÷ 4 views), not 7 ÷ 4.
    expect(stats).toMatchObject({ conversions: 7, conversionsWithoutVisit: { api: 3, html: 1 }, conversionRate: 75 });
    // The embed row counts the embedded form's lead, not the plain form's (both say utm_source=embed).
    expect(stats.breakdowns.utmSources).toEqual([{ value: 'embed', views: 1, leads: 1, conversionRate: 100 }]);
  });

  it('lists the leads 25 a page, newest first, with their sources, and finds them by part of the e-mail', async () => {
    const page = await t.createPage(owner);
    for (let i = 1; i <= 30; i += 1) {
      const query = i % 3 === 0 ? '?ref=podcast&utm_source=ig' : i % 3 === 1 ? '?utm_source=ig&utm_campaign=launch' : '';
      await t.submit(page.slug, { email: `reader${i}@${i % 2 ? 'odd' : 'even'}.example`, consent: true, referrer: 'https://t.co/x', query });
    }
    const first = (await owner.client.get(`/api/pages/${page.id}/leads`)).body;
    expect(first).toMatchObject({ total: 30, page: 1, pageSize: LEADS_PAGE_SIZE });
    expect(first.leads).toHaveLength(25);
    expect(first.leads[0]).toEqual({
      id: expect.any(Number),
      email: 'reader30@even.example',
      createdAt: expect.any(String),
      status: 'confirmed',
      referrer: 't.co',
      ref: 'podcast',
      source: null,
      utmSource: 'ig',
      utmMedium: null,
      utmCampaign: null,
      device: 'desktop',
      sourceLabel: 'podcast',
    });
    expect(first.leads[1]).toMatchObject({ email: 'reader29@odd.example', sourceLabel: 't.co' });
    expect(first.leads[2]).toMatchObject({ email: 'reader28@even.example', sourceLabel: 'ig', utmCampaign: 'launch' });
    const second = (await owner.client.get(`/api/pages/${page.id}/leads?page=2`)).body;
    expect(second.leads.map((l: { email: string }) => l.email)).toEqual([5, 4, 3, 2, 1].map((i) => `reader${i}@${i % 2 ? 'odd' : 'even'}.example`));
    const found = (await owner.client.get(`/api/pages/${page.id}/leads?search=ODD.example`)).body;
    expect(found.total).toBe(15);
    expect((await owner.client.get(`/api/pages/${page.id}/leads?search=${encodeURIComponent('%')}`)).body.total).toBe(0);
    expect((await owner.client.get(`/api/pages/${page.id}/leads?page=0`)).status).toBe(400);
    const other = await t.creator('pro');
    expect((await other.client.get(`/api/pages/${page.id}/leads`)).status).toBe(404);
  });
});
