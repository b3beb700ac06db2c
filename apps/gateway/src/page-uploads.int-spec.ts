import sharp from 'sharp';
import { JOBS, QueueName, type UploadImageType } from '@plink/contracts';
import { JobQueue, RecurringJobs } from '@plink/queue';
import { LocalStorage, S3Storage, Storage } from '@plink/storage';
import { TestClient, localUploadStore, s3rverUploadStore } from '@plink/testing';
import { SweepUploadsService } from '@plink/uploads';
import { startTestGateway, type TestGateway } from './testing/test-gateway';

/** Polls until `read` gives `expected` (or the time is up), and answers the last value. */
async function waitFor<T>(read: () => Promise<T>, expected: T, timeoutMs: number): Promise<{ value: T }> {
  const started = Date.now();
  let value = await read();
  while (value !== expected && Date.now() - started < timeoutMs) {
    await new Promise((r) => setTimeout(r, 100));
    value = await read();
  }
  return { value };
}

/** A plain test picture of that size. */
function makeImage(width: number, height: number, format: 'jpeg' | 'png' = 'jpeg'): Promise<Buffer> {
  return sharp({ create: { width, height, channels: 3, background: { r: 40, g: 120, b: 200 } } }).toFormat(format).toBuffer();
}

function imageForm(file: Buffer): FormData {
  const form = new FormData();
  form.append('image', new Blob([new Uint8Array(file)], { type: 'image/png' }), 'picture.png');
  return form;
}

function upload(client: TestClient, type: string, form: FormData) {
  return client.request('POST', `/api/upload-image?type=${type}`, form);
}

const KEY_IN_URL = /^\/uploads\/(u(\d+)\/(main|favicon|background|meta)-[A-Za-z0-9_-]{22}\.(jpg|png|gif|webp))$/;

/** The storage key behind an answered imageUrl (and a check of its shape). */
function keyOf(imageUrl: string, userId: number, type: UploadImageType): string {
  const match = KEY_IN_URL.exec(imageUrl);
  expect(match).not.toBeNull();
  expect(Number(match![2])).toBe(userId);
  expect(match![3]).toBe(type);
  return match![1];
}

async function servedBytes(origin: string, url: string): Promise<{ status: number }> {
  const response = await fetch(origin + url);
  await response.arrayBuffer();
  return { status: response.status };
}

/**
 * The uploads a page shows, and those it no longer does: removed by the uploads queue (run beside the pages
 * worker, which tells it what the pages show) when a page is deleted or an edit replaces or clears an
 * image, and by the sweep of uploads never saved to a page; an upload some page still shows is kept. Two
 * services meet here (uploads and pages), so it runs through the gateway with PLINK_WORKERS=pages.
 */
describe.each([localUploadStore(), s3rverUploadStore()])('uploads of pages in the $name', (store) => {
  let t: TestGateway;
  let storage: Storage;
  let n = 0;

  beforeAll(async () => {
    t = await startTestGateway({ ...(await store.start()), PLINK_WORKERS: 'pages', AUTH_RATE_LIMIT_PER_MINUTE: '0' });
    storage = t.app.get(Storage);
    expect(storage).toBeInstanceOf(store.kind === 'local' ? LocalStorage : S3Storage);
  });

  afterAll(async () => {
    await t?.close();
    await store.stop();
  });

  /** A registered creator, signed in and verified; Pro when asked. */
  async function creator(options: { premium?: boolean } = {}): Promise<{ id: number; client: TestClient }> {
    n += 1;
    const tag = `${Date.now().toString(36)}${n}`;
    const client = new TestClient(t.origin);
    const registered = await client.post('/api/register', { username: `uploader_${tag}`, email: `uploader.${tag}@example.com`, password: 'secret-password' });
    expect(registered.status).toBe(201);
    await t.db.query('update identity.users set is_verified = true, is_premium = $2 where id = $1', [registered.body.id, options.premium ?? false]);
    return { id: registered.body.id, client };
  }

  it('removes a deleted page’s uploads, but keeps one that another page still shows', async () => {
    const owner = await creator({ premium: true });
    const url = async (type: UploadImageType, file: Buffer) => (await upload(owner.client, type, imageForm(file))).body.imageUrl as string;
    const main = await url('main', await makeImage(800, 600));
    const favicon = await url('favicon', await makeImage(64, 64, 'png'));
    const background = await url('background', await makeImage(1200, 800));
    // 'Use Main Image' copies the main image into the sharing image.
    const first = await owner.client.post('/api/pages', { slug: `first-${Date.now()}`, imageUrl: main, metaImageUrl: main, faviconUrl: favicon, backgroundImage: background });
    expect(first.status).toBe(201);
    // The creator reuses the background on a second page.
    const second = await owner.client.post('/api/pages', { slug: `second-${Date.now()}`, backgroundImage: background });
    expect(second.status).toBe(201);
    const keys = {
      main: keyOf(main, owner.id, 'main'),
      favicon: keyOf(favicon, owner.id, 'favicon'),
      background: keyOf(background, owner.id, 'background'),
    };

    expect((await owner.client.delete(`/api/pages/${first.body.id}`)).status).toBe(200);
    expect((await waitFor(() => storage.exists(keys.main), false, 15_000)).value).toBe(false);
    expect((await waitFor(() => storage.exists(keys.favicon), false, 15_000)).value).toBe(false);
    expect((await servedBytes(t.origin, main)).status).toBe(404);
    // Still on the second page.
    expect(await storage.exists(keys.background)).toBe(true);
    expect((await servedBytes(t.origin, background)).status).toBe(200);

    expect((await owner.client.delete(`/api/pages/${second.body.id}`)).status).toBe(200);
    expect((await waitFor(() => storage.exists(keys.background), false, 15_000)).value).toBe(false);
  });

  it('removes an image an edit replaces or clears, but not one the page still shows elsewhere', async () => {
    const owner = await creator();
    const url = async (type: UploadImageType) => (await upload(owner.client, type, imageForm(await makeImage(300, 200)))).body.imageUrl as string;
    const [main, newMain, favicon] = [await url('main'), await url('main'), await url('favicon')];
    const created = await owner.client.post('/api/pages', { slug: `edit-${Date.now()}`, imageUrl: main, metaImageUrl: main, faviconUrl: favicon });
    expect(created.status).toBe(201);
    const id = created.body.id;

    // A new main image: the old one stays, as it is still the sharing image ('Use Main Image').
    expect((await owner.client.put(`/api/pages/${id}`, { imageUrl: newMain })).status).toBe(200);
    // The favicon is cleared: it goes.
    expect((await owner.client.put(`/api/pages/${id}`, { faviconUrl: null })).status).toBe(200);
    expect((await waitFor(() => storage.exists(keyOf(favicon, owner.id, 'favicon')), false, 15_000)).value).toBe(false);
    expect(await storage.exists(keyOf(main, owner.id, 'main'))).toBe(true);

    // The sharing image follows the new main image: now the old one goes too.
    expect((await owner.client.put(`/api/pages/${id}`, { metaImageUrl: newMain })).status).toBe(200);
    expect((await waitFor(() => storage.exists(keyOf(main, owner.id, 'main')), false, 15_000)).value).toBe(false);
    expect(await storage.exists(keyOf(newMain, owner.id, 'main'))).toBe(true);
    expect((await servedBytes(t.origin, newMain)).status).toBe(200);
  });

  describe('the sweep of uploads never saved to a page', () => {
    it('removes an old upload no page shows; keeps a fresh one, and old ones shown by an image field or the rich text', async () => {
      const owner = await creator();
      const url = async (type: UploadImageType) => (await upload(owner.client, type, imageForm(await makeImage(300, 200)))).body.imageUrl as string;
      const [orphan, fresh, inField, inText] = [await url('main'), await url('main'), await url('background'), await url('main')];
      const keys = {
        orphan: keyOf(orphan, owner.id, 'main'),
        fresh: keyOf(fresh, owner.id, 'main'),
        inField: keyOf(inField, owner.id, 'background'),
        inText: keyOf(inText, owner.id, 'main'),
      };
      // The rich text embeds an image by its absolute URL.
      const subtext = `<p>Have a look:</p><p><img src="${t.config.appOrigin}${inText}"></p>`;
      const page = await owner.client.post('/api/pages', { slug: `sweep-${Date.now()}`, backgroundImage: inField, subtext });
      expect(page.status).toBe(201);
      expect(page.body.subtext).toContain(keys.inText);
      for (const key of [keys.orphan, keys.inField, keys.inText]) await store.age(key, 25);
      await store.age(keys.fresh, 23);

      // The uploads of the other tests above are all fresh: only what this test aged is old enough.
      const result = await t.app.get(SweepUploadsService, { strict: false }).execute();
      expect(result).toMatchObject({ removed: 1, kept: 2 });
      expect(result.fresh).toBeGreaterThanOrEqual(1);
      expect(await storage.exists(keys.orphan)).toBe(false);
      expect((await servedBytes(t.origin, orphan)).status).toBe(404);
      for (const key of [keys.fresh, keys.inField, keys.inText]) expect(await storage.exists(key)).toBe(true);

      // A later sweep with the clock two days on takes the fresh one too, but still not the ones in use.
      const later = await t.app.get(SweepUploadsService, { strict: false }).execute({ now: new Date(Date.now() + 48 * 3_600_000) });
      expect(await storage.exists(keys.fresh)).toBe(false);
      expect(later.kept).toBeGreaterThanOrEqual(2);
      for (const key of [keys.inField, keys.inText]) expect(await storage.exists(key)).toBe(true);
      expect((await servedBytes(t.origin, inField)).status).toBe(200);
    });

    it('runs as the scheduled job on the uploads queue', async () => {
      const queue = t.app.get(JobQueue).queue(QueueName.Uploads);
      const scheduler = await waitFor(async () => (await queue.getJobScheduler('pages.sweep-uploads'))?.pattern ?? null, '0 */6 * * *', 10_000);
      expect(scheduler.value).toBe('0 */6 * * *');
      // 00:00, 06:00, 12:00 and 18:00 UTC, as the job's contract declares.
      expect(JOBS['pages.sweep-uploads'].repeat).toMatchObject({ pattern: scheduler.value });
      expect((await queue.getJobScheduler('pages.sweep-uploads'))?.tz).toBe('UTC');
      // Another pages worker starting upserts the same schedule: still one.
      await t.app.get(RecurringJobs).schedule();
      expect(await queue.getJobSchedulersCount()).toBe(1);

      const owner = await creator();
      const orphan = keyOf((await upload(owner.client, 'favicon', imageForm(await makeImage(64, 64, 'png')))).body.imageUrl, owner.id, 'favicon');
      await store.age(orphan, 30);
      await t.app.get(JobQueue).addMany([{ name: 'pages.sweep-uploads', envelope: { payload: { v: 1 }, meta: { correlationId: 'test-sweep', recordedAt: new Date().toISOString() } } }]);
      expect((await waitFor(() => storage.exists(orphan), false, 15_000)).value).toBe(false);
    });
  });
});
