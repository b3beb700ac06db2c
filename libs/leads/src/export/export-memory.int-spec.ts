import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { LeadsTestApp, type Creator } from '../testing/leads-test-app';

/**
 * The CSV export of a big page streams (see LeadsTestApp): flat memory in the process that serves it. On its
 * own test app, as it measures that process's heap.
 */
describe('leads: a big export', () => {
  let t: LeadsTestApp;
  let pro: Creator;

  beforeAll(async () => {
    t = await LeadsTestApp.start();
    pro = await t.creator('pro');
  });

  afterAll(async () => {
    await t?.close();
  });

  it('streams a 100,000-lead export in flat memory, with as many rows as conversions', async () => {
    const page = await t.createPage(pro, { title: 'Big list' });
    await t.db.query(
      `insert into leads.leads (page_id, email, email_lower, consent_at, created_at)
       select $1, 'bulk' || g || '@example.com', 'bulk' || g || '@example.com', now(), now() - make_interval(secs => g)
         from generate_series(1, 100000) g`,
      [page.id],
    );
    await t.db.query('insert into leads.page_counters (page_id, shard, conversions) values ($1, 0, 100000)', [page.id]);

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
    // Every 1 MiB read, so about six samples, all while the export runs: the reader stops at each one, and the
    // server (in this process) can only be a socket buffer ahead of it. Counted by bytes, not chunks or time:
    // each full collection stops the server too, and late in a long test run (a big heap) one takes seconds, so
    // sampling by chunk or on a timer made the download itself take over a minute.
    const res = await fetch(`${t.origin}/api/pages/${page.id}/export`, { headers: { cookie: pro.client.cookieHeader() } });
    expect(res.status).toBe(200);
    let newlines = 0;
    let bytes = 0;
    let lastByte = 0;
    let nextSampleAt = 1024 * 1024;
    for await (const chunk of res.body as unknown as AsyncIterable<Uint8Array>) {
      bytes += chunk.length;
      if (bytes >= nextSampleAt) {
        sample();
        nextSampleAt = bytes + 1024 * 1024;
      }
      for (let i = 0; i < chunk.length; i += 1) if (chunk[i] === 10) newlines += 1;
      lastByte = chunk[chunk.length - 1];
    }
    expect(lastByte).toBe(10);
    expect(newlines - 1).toBe(100_000); // the header, then one line per lead
    expect(newlines - 1).toBe(await t.conversions(page.id));
    expect(bytes).toBeGreaterThan(5_000_000);
    expect(samples).toBeGreaterThan(3);
    // Buffering would hold every row and the whole text at once; streaming holds about one batch (~1 MB measured).
    expect(peak - baseline).toBeLessThan(20 * 1024 * 1024);
  }, 180_000);
});
