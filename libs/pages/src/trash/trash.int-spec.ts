import { Queue } from 'bullmq';
import { JOBS, PageMessages, QueueName, TrashTexts, type PageDto, type TrashedPageDto } from '@plink/contracts';
import { JobQueue, RecurringJobs } from '@plink/queue';
import { pollUntil } from '@plink/testing';
import { PagesTestApp, type Creator } from '../testing/pages-test-app';
import { TrashClock } from './trash-clock';

const DAY = 24 * 60 * 60 * 1000;

/** The Trash against a real PostgreSQL and Redis, with the pages worker running its purge. */
describe('the Trash', () => {
  let t: PagesTestApp;
  let queue: Queue;
  /** How far the worker's clock is moved ahead of the real one (the purge's "now"). */
  let shift = 0;

  beforeAll(async () => {
    t = await PagesTestApp.start();
    await t.startWorker();
    jest.spyOn(t.worker!.get(TrashClock, { strict: false }), 'now').mockImplementation(() => new Date(Date.now() + shift));
    queue = new Queue(QueueName.Leads, { connection: { url: t.config.redisUrl }, prefix: `${t.config.redisPrefix}bull` });
  });

  afterEach(() => {
    shift = 0;
  });

  afterAll(async () => {
    await queue?.close();
    await t?.close();
  });

  let n = 0;
  const slug = () => `trash-${Date.now().toString(36)}-${(n += 1)}`;
  const create = async (owner: Creator, fields: Record<string, unknown> = {}): Promise<PageDto> => {
    const res = await owner.client.post('/api/pages', { slug: slug(), title: 'My Guide', ...fields });
    expect(res.status).toBe(201);
    return res.body;
  };
  const rows = async (pageId: number) => (await t.db.query<{ deleted_at: Date | null }>('select deleted_at from pages.pages where id = $1', [pageId])).rows;
  /** The jobs the outbox recorded for a page (before or after the relay moved them), by name. */
  const outboxJobs = async (name: string, pageId: number) =>
    (await t.db.query("select payload from platform.outbox where job_name = $1 and (payload->>'pageId')::int = $2", [name, pageId])).rows;
  /** The leads service's last 'page.changed' of a page, as its queue holds it (relayed from the outbox). */
  const lastPageChange = async (pageId: number) => {
    const jobs = await queue.getJobs(['waiting', 'delayed', 'active', 'completed', 'failed', 'prioritized']);
    const changes = jobs.filter((j) => j.name === 'page.changed' && j.data.payload.pageId === pageId).map((j) => j.data.payload);
    return changes.sort((a, b) => a.version - b.version).at(-1) ?? null;
  };

  it('takes a deleted page off its address at once, keeps its slug held, and lists it in the Trash for 14 days', async () => {
    const owner = await t.creator({ premium: true });
    const page = await create(owner);
    // Served once, so both the rendered page and the directory have it cached.
    expect((await t.client().get(`/${page.slug}`)).status).toBe(200);
    expect((await t.client().get(`/api/page/${page.slug}`)).status).toBe(200);
    const replica = await t.replica();
    expect((await replica.client().get(`/${page.slug}`)).status).toBe(200);

    const before = Date.now();
    const deleted = await owner.client.delete(`/api/pages/${page.id}`);
    expect(deleted).toMatchObject({ status: 200, body: { message: TrashTexts.moved } });

    // Gone for visitors at once, in this process and the other replica.
    expect((await t.client().get(`/${page.slug}`)).status).toBe(404);
    expect((await t.client().get(`/api/page/${page.slug}`)).body).toEqual({ message: PageMessages.pageNotFound });
    await pollUntil(async () => (await replica.client().get(`/${page.slug}`)).status, (s) => s === 404, 5_000);
    expect((await replica.client().get(`/${page.slug}`)).status).toBe(404);
    await replica.close();
    // Gone from the owner's pages; its editor and stats answer 404.
    expect((await owner.client.get('/api/pages')).body.map((p: PageDto) => p.id)).not.toContain(page.id);
    expect((await owner.client.get(`/api/pages/${page.id}`)).status).toBe(404);
    expect((await owner.client.put(`/api/pages/${page.id}`, { title: 'Edited' })).status).toBe(404);
    // Its slug stays held: nobody may take it while it can be restored.
    const other = await t.creator({ premium: true });
    expect((await other.client.post('/api/pages', { slug: page.slug })).body).toEqual({ message: PageMessages.slugTaken });
    expect((await other.client.get(`/api/slug-availability?slug=${page.slug}`)).body).toMatchObject({ available: false });

    const trash = (await owner.client.get('/api/trash')).body as TrashedPageDto[];
    expect(trash).toEqual([{ id: page.id, slug: page.slug, title: 'My Guide', deletedAt: expect.any(String), purgeAt: expect.any(String) }]);
    const deletedAt = Date.parse(trash[0].deletedAt);
    expect(deletedAt).toBeGreaterThanOrEqual(before - 1000);
    expect(Date.parse(trash[0].purgeAt) - deletedAt).toBe(14 * DAY);
    // Another user's Trash does not show it.
    expect((await other.client.get('/api/trash')).body).toEqual([]);

    // Every copy hears the page is gone (as a delete), but its leads are not removed yet.
    expect(await pollUntil(() => lastPageChange(page.id), (c) => c?.page === null, 5_000)).toMatchObject({ page: null });
    expect(await outboxJobs('leads.delete-for-page', page.id)).toEqual([]);
    expect((await rows(page.id))[0].deleted_at).not.toBeNull();
  });

  it('restores a page: live again at its address, published to every copy again', async () => {
    const owner = await t.creator({ premium: true });
    const page = await create(owner);
    await owner.client.delete(`/api/pages/${page.id}`);
    expect((await t.client().get(`/${page.slug}`)).status).toBe(404);

    const restored = await owner.client.post(`/api/pages/${page.id}/restore`);
    expect(restored.status).toBe(200);
    expect(restored.body).toMatchObject({ id: page.id, slug: page.slug, title: 'My Guide', paused: false });
    expect((await t.client().get(`/${page.slug}`)).status).toBe(200);
    expect((await owner.client.get('/api/trash')).body).toEqual([]);
    expect((await owner.client.get('/api/pages')).body.map((p: PageDto) => p.id)).toContain(page.id);
    expect(await pollUntil(() => lastPageChange(page.id), (c) => !!c?.page, 5_000)).toMatchObject({ page: { slug: page.slug, paused: false } });

    // Restoring again, or a page not in the Trash, or another user's: 404, nothing changes.
    expect((await owner.client.post(`/api/pages/${page.id}/restore`)).body).toEqual({ message: TrashTexts.notInTrash });
    await owner.client.delete(`/api/pages/${page.id}`);
    const stranger = await t.creator({ premium: true });
    for (const res of [await stranger.client.post(`/api/pages/${page.id}/restore`), await stranger.client.delete(`/api/trash/${page.id}`)]) {
      expect(res).toMatchObject({ status: 404, body: { message: TrashTexts.notInTrash } });
    }
    expect((await rows(page.id))[0].deleted_at).not.toBeNull();
    expect((await t.client().post(`/api/pages/${page.id}/restore`)).status).toBe(401);
  });

  it('refuses a Free owner a restore while another page is active, with the one-page rule in words', async () => {
    const owner = await t.creator();
    const first = await create(owner);
    await owner.client.delete(`/api/pages/${first.id}`);
    // The Trash does not count: a Free owner may make a new page meanwhile.
    const second = await create(owner);

    const refused = await owner.client.post(`/api/pages/${first.id}/restore`);
    expect(refused).toMatchObject({ status: 403, body: { message: TrashTexts.freePlanRestore } });
    expect(TrashTexts.freePlanRestore).toBe('Free plan users can only have one active landing page. Delete your other page or upgrade to Pro to restore this one.');
    expect((await t.client().get(`/${first.slug}`)).status).toBe(404);
    expect((await owner.client.get('/api/trash')).body.map((p: TrashedPageDto) => p.id)).toEqual([first.id]);

    // Once the other page is deleted, it comes back.
    await owner.client.delete(`/api/pages/${second.id}`);
    expect((await owner.client.post(`/api/pages/${first.id}/restore`)).status).toBe(200);
    expect((await t.client().get(`/${first.slug}`)).status).toBe(200);
  });

  it('deletes forever on request: the page, its analytics, its leads job, its slug free again', async () => {
    const owner = await t.creator({ premium: true });
    const page = await create(owner);
    await t.db.query("insert into pages.page_days (page_id, day, views, uniques) values ($1, current_date, 5, 3)", [page.id]);
    // A live page is not in the Trash: "Delete forever" leaves it alone.
    expect((await owner.client.delete(`/api/trash/${page.id}`)).status).toBe(404);
    await owner.client.delete(`/api/pages/${page.id}`);

    const gone = await owner.client.delete(`/api/trash/${page.id}`);
    expect(gone).toMatchObject({ status: 200, body: { message: TrashTexts.deletedForever } });
    expect(await rows(page.id)).toEqual([]);
    expect((await t.db.query('select count(*)::int as n from pages.page_days where page_id = $1', [page.id])).rows[0].n).toBe(0);
    await pollUntil(async () => (await queue.getJobs(['waiting', 'delayed', 'active', 'completed', 'failed'])).some((j) => j.name === 'leads.delete-for-page' && j.data.payload.pageId === page.id), Boolean, 5_000);
    expect((await owner.client.get('/api/trash')).body).toEqual([]);
    expect((await owner.client.post('/api/pages', { slug: page.slug })).status).toBe(201);
  });

  it('is purged by the scheduled job after 14 days, with the jobs that remove its leads and uploads', async () => {
    const pages = t.app.get(JobQueue).queue(QueueName.Pages);
    const pattern = await pollUntil(async () => (await pages.getJobScheduler('pages.purge-trash'))?.pattern ?? null, (p) => p !== null, 10_000);
    expect(JOBS['pages.purge-trash'].repeat).toMatchObject({ pattern });
    await t.worker!.get(RecurringJobs).schedule();
    expect((await pages.getJobSchedulers()).filter((s) => s.name === 'pages.purge-trash')).toHaveLength(1);

    const owner = await t.creator({ premium: true });
    const image = `/uploads/u${owner.id}/main-abcdefghijklmnopqrstuv.png`;
    const page = await create(owner, { imageUrl: image });
    const kept = await create(owner);
    await owner.client.delete(`/api/pages/${page.id}`);
    await owner.client.delete(`/api/pages/${kept.id}`);
    // This one went to the Trash a day later: its 14 days are not over when the first one's are.
    await t.db.query("update pages.pages set deleted_at = deleted_at + interval '1 day' where id = $1", [kept.id]);
    const runPurge = () =>
      t.app.get(JobQueue).addMany([{ name: 'pages.purge-trash', envelope: { payload: { v: 1 }, meta: { correlationId: 'test-purge', recordedAt: new Date().toISOString() } } }]);

    // 13 days later nothing is due.
    shift = 13 * DAY;
    await runPurge();
    await new Promise((r) => setTimeout(r, 1_000));
    expect(await rows(page.id)).toHaveLength(1);

    // 14 days and a moment later the page is gone, with the jobs a delete records; the younger one stays.
    shift = 14 * DAY + 60_000;
    await runPurge();
    await pollUntil(() => rows(page.id), (r) => r.length === 0, 10_000);
    expect(await rows(page.id)).toEqual([]);
    expect(await rows(kept.id)).toHaveLength(1);
    const relayed = async () => {
      const all = await t.app.get(JobQueue).queue(QueueName.Uploads).getJobs(['waiting', 'delayed', 'active', 'completed', 'failed']);
      return all.filter((j) => j.name === 'pages.delete-uploads').map((j) => j.data.payload.keys).flat();
    };
    expect(await pollUntil(relayed, (keys) => keys.includes(`u${owner.id}/main-abcdefghijklmnopqrstuv.png`), 5_000)).toContain(`u${owner.id}/main-abcdefghijklmnopqrstuv.png`);
    await pollUntil(async () => (await queue.getJobs(['waiting', 'delayed', 'active', 'completed', 'failed'])).some((j) => j.name === 'leads.delete-for-page' && j.data.payload.pageId === page.id), Boolean, 5_000);
    expect((await owner.client.get('/api/trash')).body.map((p: TrashedPageDto) => p.id)).toEqual([kept.id]);
  });
});
