import { Redis } from 'ioredis';
import { FlushAnalyticsService } from './flush-analytics.service';
import { PagesTestApp, waitFor, type Creator } from '../testing/pages-test-app';
import { AnalyticsCounter } from './analytics-counter';

const DESKTOP = 'Mozilla/5.0 (Macintosh; Intel Mac OS X 14_7_1) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/18.1 Safari/605.1.15';
const PHONE = 'Mozilla/5.0 (iPhone; CPU iPhone OS 18_1 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/18.1 Mobile/15E148 Safari/604.1';
const TABLET = 'Mozilla/5.0 (iPad; CPU OS 17_0 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.0 Mobile/15E148 Safari/604.1';
const GOOGLEBOT = 'Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)';

/** Per-day analytics: views, unique visitors (HyperLogLog) and sources, counted without a cookie or a per-view row. */
describe('page analytics', () => {
  let t: PagesTestApp;
  let redis: Redis;
  let owner: Creator;

  beforeAll(async () => {
    t = await PagesTestApp.start();
    await t.startWorker();
    redis = new Redis(t.config.redisUrl);
    owner = await t.creator({ premium: true });
  });

  afterAll(async () => {
    redis?.disconnect();
    await t?.close();
  });

  let n = 0;
  const newPage = async () => (await owner.client.post('/api/pages', { slug: `counted-${Date.now().toString(36)}-${(n += 1)}` })).body as { id: number; slug: string };
  const days = async (pageId: number) =>
    (await t.db.query("select to_char(day, 'YYYY-MM-DD') as day, views, uniques from pages.page_days where page_id = $1 order by day", [pageId])).rows as {
      day: string;
      views: number;
      uniques: number;
    }[];
  const sources = async (pageId: number) =>
    Object.fromEntries(
      ((await t.db.query('select kind, value, sum(views)::int as views from pages.page_sources where page_id = $1 group by kind, value', [pageId])).rows as {
        kind: string;
        value: string;
        views: number;
      }[]).map((r) => [`${r.kind}:${r.value}`, r.views]),
    );
  const totalViews = async (pageId: number) => (await days(pageId)).reduce((s, d) => s + d.views, 0);

  it('counts views, visitors and sources of real loads (not crawlers, not the own host), in the database within 5 s', async () => {
    const page = await newPage();
    const today = new Date().toISOString().slice(0, 10);
    const origin = t.origin;
    // One visitor (same address and browser) three times: from a newsletter link, from a social site, directly.
    await t.client({ 'user-agent': DESKTOP, referer: 'https://www.news.example/issue-4' }).get(`/${page.slug}?utm_source=News&utm_medium=email&utm_campaign=Spring`);
    await t.client({ 'user-agent': DESKTOP, referer: 'https://social.example/post/1' }).get(`/${page.slug}`);
    await t.client({ 'user-agent': DESKTOP, referer: `${origin}/somewhere` }).get(`/${page.slug}`);
    // Two more visitors (other browsers), one on the short address.
    await t.client({ 'user-agent': PHONE, referer: 'https://social.example/post/2' }).get(`/p/${page.slug}`);
    await t.client({ 'user-agent': TABLET }).get(`/${page.slug}?utm_source=ads&utm_campaign=spring`);
    // Not counted: a crawler, the thank-you state, a HEAD probe.
    await t.client({ 'user-agent': GOOGLEBOT, referer: 'https://crawl.example/' }).get(`/${page.slug}`);
    await t.client({ 'user-agent': DESKTOP }).get(`/${page.slug}?submitted=1`);
    await t.client({ 'user-agent': DESKTOP }).request('HEAD', `/${page.slug}`);

    await waitFor(() => totalViews(page.id), 5, 5_000);
    expect(await days(page.id)).toEqual([{ day: today, views: 5, uniques: 3 }]);
    expect(await sources(page.id)).toEqual({
      'referrer:news.example': 1,
      'referrer:social.example': 2,
      'utm_source:news': 1,
      'utm_source:ads': 1,
      'utm_medium:email': 1,
      'utm_campaign:spring': 2,
      'device:desktop': 3,
      'device:phone': 1,
      'device:tablet': 1,
    });
    // Nothing of the visitor itself is kept: no address, no user agent, anywhere in the analytics tables.
    const dump = JSON.stringify((await t.db.query('select * from pages.page_days, pages.page_sources where page_days.page_id = $1', [page.id])).rows);
    expect(dump).not.toMatch(/127\.0\.0\.1|::1|Mozilla|iPhone/);
    const keys = await redis.keys(`${t.config.redisPrefix}analytics:*`);
    for (const key of keys.filter((k) => !k.includes(':uv:') && !k.includes(':salt:'))) {
      expect(JSON.stringify(await redis.hgetall(key))).not.toMatch(/127\.0\.0\.1|Mozilla/);
    }
  }, 20_000);

  it('keeps the top 50 values of a day and adds up the rest under "other"; a deleted page takes its analytics along', async () => {
    const page = await newPage();
    const counter = t.app.get(AnalyticsCounter);
    const visit = (referrer: string, times = 1) => {
      for (let i = 0; i < times; i += 1) counter.count(page.id, { ip: '10.0.0.1', userAgent: DESKTOP, referer: `https://${referrer}/`, url: `/${page.slug}` });
    };
    for (let i = 0; i < 45; i += 1) visit(`site${i}.example`, 2);
    await counter.flush();
    await t.worker!.get(FlushAnalyticsService).execute();
    for (let i = 45; i < 60; i += 1) visit(`site${i}.example`, i === 59 ? 5 : 1); // 15 new ones: the largest 5 get the free places
    visit('site0.example');
    await counter.flush();
    await t.worker!.get(FlushAnalyticsService).execute();
    const counted = await sources(page.id);
    const referrers = Object.keys(counted).filter((k) => k.startsWith('referrer:'));
    expect(referrers).toHaveLength(51);
    expect(counted['referrer:site0.example']).toBe(3);
    expect(counted['referrer:site59.example']).toBe(5);
    expect(counted['referrer:other']).toBe(10);
    expect(Object.entries(counted).filter(([k]) => k.startsWith('referrer:')).reduce((s, [, v]) => s + v, 0)).toBe(45 * 2 + 14 + 5 + 1);

    // In the Trash they stay (a restore brings them back); deleted forever they go with the page.
    await owner.client.delete(`/api/pages/${page.id}`);
    expect((await days(page.id)).length).toBeGreaterThan(0);
    await owner.client.delete(`/api/trash/${page.id}`);
    expect(await days(page.id)).toEqual([]);
    expect(await sources(page.id)).toEqual({});
  }, 20_000);

  it("answers the dashboard's sparklines: each of the creator's pages' views per UTC day over the last 30 days, no one else's", async () => {
    const [first, second] = [await newPage(), await newPage()];
    const stranger = await t.creator();
    const theirs = (await stranger.client.post('/api/pages', { slug: `theirs-${Date.now().toString(36)}` })).body as { id: number };
    const dayAgo = (n: number) => new Date(Date.now() - n * 86_400_000).toISOString().slice(0, 10);
    for (const [pageId, ago, views] of [
      [first.id, 0, 7],
      [first.id, 29, 3],
      [first.id, 30, 100], // a day before the 30: not drawn
      [second.id, 1, 2],
      [theirs.id, 0, 50],
    ] as const) {
      await t.db.query('insert into pages.page_days (page_id, day, views, uniques) values ($1, $2, $3, $3)', [pageId, dayAgo(ago), views]);
    }
    const res = await owner.client.get('/api/pages/daily-views');
    expect(res.status).toBe(200);
    expect(res.body.from).toBe(dayAgo(29));
    expect(res.body.to).toBe(dayAgo(0));
    const expected = (entries: [number, number][]) => {
      const series = new Array<number>(30).fill(0);
      for (const [ago, views] of entries) series[29 - ago] = views;
      return series;
    };
    expect(res.body.views[first.id]).toEqual(expected([[0, 7], [29, 3]]));
    expect(res.body.views[second.id]).toEqual(expected([[1, 2]]));
    expect(res.body.views[theirs.id]).toBeUndefined();
    expect((await t.client().get('/api/pages/daily-views')).status).toBe(401);
  });

  it('is accurate: 10,000 visits of 3,000 visitors over 3 days → views and sources exact, uniques within 2 % per day', async () => {
    const page = await newPage();
    const counter = t.app.get(AnalyticsCounter);
    const flush = t.worker!.get(FlushAnalyticsService);
    const start = Date.UTC(2026, 10, 20);
    const referrers = ['news.example', 'social.example', 'blog.example', undefined];
    const campaigns = ['spring', 'summer', undefined];
    const expected = { views: new Map<string, number>(), visitors: new Map<string, Set<number>>(), sources: new Map<string, number>() };
    const bump = (map: Map<string, number>, key: string) => map.set(key, (map.get(key) ?? 0) + 1);
    // A fixed pseudo-random sequence: the same visits each run.
    let seed = 42;
    const random = () => ((seed = (seed * 1_103_515_245 + 12_345) % 2_147_483_648) / 2_147_483_648);
    try {
      for (let i = 0; i < 10_000; i += 1) {
        const dayIndex = Math.floor(i / 3_334);
        const at = start + dayIndex * 86_400_000 + Math.floor(random() * 86_000_000);
        const visitor = Math.floor(random() * 3_000);
        const referrer = referrers[visitor % referrers.length];
        const campaign = campaigns[Math.floor(random() * campaigns.length)];
        const ua = visitor % 3 === 0 ? PHONE : `${DESKTOP} v${visitor % 7}`;
        counter.now = () => at;
        counter.count(page.id, {
          ip: `198.51.${Math.floor(visitor / 250)}.${visitor % 250}`,
          userAgent: ua,
          referer: referrer && `https://${referrer}/x`,
          url: campaign ? `/${page.slug}?utm_source=newsletter&utm_campaign=${campaign}` : `/${page.slug}`,
        });
        const day = new Date(at).toISOString().slice(0, 10);
        bump(expected.views, day);
        expected.visitors.set(day, (expected.visitors.get(day) ?? new Set()).add(visitor));
        if (referrer) bump(expected.sources, `referrer:${referrer}`);
        if (campaign) {
          bump(expected.sources, 'utm_source:newsletter');
          bump(expected.sources, `utm_campaign:${campaign}`);
        }
        bump(expected.sources, `device:${ua === PHONE ? 'phone' : 'desktop'}`);
        if (i % 1_000 === 999) {
          await counter.flush();
          await flush.execute();
        }
      }
      await counter.flush();
      await flush.execute();
    } finally {
      counter.now = Date.now;
    }
    const rows = await days(page.id);
    expect(rows.map((r) => [r.day, r.views])).toEqual([...expected.views]);
    console.log(`uniques per day (counted / distinct): ${rows.map((r) => `${r.day} ${r.uniques}/${expected.visitors.get(r.day)!.size}`).join(', ')}`);
    for (const row of rows) {
      const actual = expected.visitors.get(row.day)!.size;
      expect(Math.abs(row.uniques - actual) / actual).toBeLessThan(0.02);
    }
    expect(await sources(page.id)).toEqual(Object.fromEntries(expected.sources));
  }, 60_000);
});
