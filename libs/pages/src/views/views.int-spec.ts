import { Redis } from 'ioredis';
import { FlushViewsService } from '../use-cases/flush-views.service';
import { PagesTestApp, waitFor, type Creator } from '../testing/pages-test-app';
import { ViewCounter } from './view-counter';

const BROWSER = 'Mozilla/5.0 (Macintosh; Intel Mac OS X 14_7_1) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/18.1 Safari/605.1.15';
const CRAWLERS = [
  'Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)',
  'facebookexternalhit/1.1 (+http://www.facebook.com/externalhit_uatext.php)',
  'Slackbot-LinkExpanding 1.0 (+https://api.slack.com/robots)',
  'WhatsApp/2.23.20.0',
  'Mozilla/5.0 (compatible; bingbot/2.0; +http://www.bing.com/bingbot.htm)',
];

/** Views: counted in memory, handed to Redis every second, moved into PostgreSQL by the pages worker. */
describe('views', () => {
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
  const newPage = async () => (await owner.client.post('/api/pages', { slug: `viewed-${Date.now().toString(36)}-${(n += 1)}` })).body as { id: number; slug: string };
  const dbViews = async (pageId: number) => Number((await t.db.query('select views from pages.pages where id = $1', [pageId])).rows[0].views);
  const apiViews = async (pageId: number) => (await owner.client.get(`/api/pages/${pageId}`)).body.views as number;

  it('counts visitor loads (browsers and unknown clients), not crawlers, thank-you answers or HEAD probes; in the database within 5 s', async () => {
    const page = await newPage();
    const started = Date.now();
    await t.client({ 'user-agent': BROWSER }).get(`/${page.slug}`);
    await t.client({ 'user-agent': BROWSER }).get(`/p/${page.slug}`);
    await t.client({ 'user-agent': BROWSER }).get(`/p/${owner.username}/${page.slug}`);
    await t.client({ 'user-agent': 'curl/8.5.0' }).get(`/${page.slug}`);
    await t.client().get(`/api/page/${page.slug}`); // node's fetch: an unknown client, counted
    for (const ua of CRAWLERS) {
      expect((await t.client({ 'user-agent': ua }).get(`/${page.slug}`)).status).toBe(200);
      expect((await t.client({ 'user-agent': ua }).get(`/api/page/${page.slug}`)).status).toBe(200);
    }
    await t.client({ 'user-agent': BROWSER }).get(`/${page.slug}?submitted=1`);
    await t.client({ 'user-agent': BROWSER }).request('HEAD', `/${page.slug}`);

    const { value, ms } = await waitFor(() => dbViews(page.id), 5, 5_000);
    expect(value).toBe(5);
    expect(Date.now() - started).toBeLessThan(5_000);
    expect(ms).toBeLessThan(5_000);
    expect(await apiViews(page.id)).toBe(5);
    // Nothing more arrives later (no crawler view was buffered somewhere).
    await new Promise((r) => setTimeout(r, 3_000));
    expect(await dbViews(page.id)).toBe(5);
  }, 20_000);

  it('adds up views from many visitors and several replicas without losing any', async () => {
    const page = await newPage();
    const other = await t.replica();
    await Promise.all([
      ...Array.from({ length: 60 }, () => t.client({ 'user-agent': BROWSER }).get(`/${page.slug}`)),
      ...Array.from({ length: 40 }, () => other.client({ 'user-agent': BROWSER }).get(`/${page.slug}`)),
    ]);
    expect((await waitFor(() => dbViews(page.id), 100, 5_000)).value).toBe(100);
  }, 20_000);

  it('loses nothing on a clean stop: the last counts reach Redis before the process ends', async () => {
    const page = await newPage();
    const other = await t.replica();
    for (let i = 0; i < 3; i += 1) await other.client({ 'user-agent': BROWSER }).get(`/${page.slug}`);
    expect(other.app.get(ViewCounter).pending()).toBe(3);
    await other.close(); // before its 1 s flush
    expect((await waitFor(() => dbViews(page.id), 3, 5_000)).value).toBe(3);
  }, 20_000);

  it('applies a batch a crashed flush left behind, and never the same batch twice', async () => {
    const page = await newPage();
    const processing = `${t.config.redisPrefix}views:processing`;
    const pending = `${t.config.redisPrefix}views:pending`;
    const flush = t.worker!.get(FlushViewsService);

    // A flush crashed after taking the batch, before writing it: it is applied (with what is pending now).
    await redis.hset(processing, { _batch: 'crashed-before-commit', [page.id]: '4' });
    await redis.hincrby(pending, String(page.id), 2);
    await flush.execute();
    expect(await dbViews(page.id)).toBe(6);
    expect(await redis.exists(processing, pending)).toBe(0);

    // A flush crashed after its commit, before deleting the batch: it is not applied again.
    await redis.hset(processing, { _batch: 'crashed-after-commit', [page.id]: '10' });
    await t.db.query("insert into pages.view_flushes (batch_id) values ('crashed-after-commit')");
    await flush.execute();
    expect(await dbViews(page.id)).toBe(6);
    expect(await redis.exists(processing)).toBe(0);

    // Junk in the hash (not a page id, not a count, a deleted page) is skipped.
    await redis.hset(pending, { abc: '3', 999999: '5', '-1': '1', '1.5': '2', [page.id]: '1' });
    await redis.hset(processing, { _batch: 'junk', [page.id]: 'x' });
    await flush.execute();
    expect(await dbViews(page.id)).toBe(7);
    expect(await redis.exists(processing, pending)).toBe(0);
  }, 20_000);
});
