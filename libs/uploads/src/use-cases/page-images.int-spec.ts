import { JOBS, type UploadImageType } from '@plink/contracts';
import { JobQueue, RecurringJobs } from '@plink/queue';
import { LocalStorage, S3Storage, Storage } from '@plink/storage';
import { localUploadStore, pollUntil, s3rverUploadStore } from '@plink/testing';
import { SweepUploadsService } from './sweep-uploads.service';
import { makeImage } from '../testing/test-images';
import { UploadsTestApp, imageForm, servedBytes, upload, type Creator } from '../testing/uploads-test-app';

const KEY_IN_URL = /^\/uploads\/(u(\d+)\/(main|favicon|background|meta)-[A-Za-z0-9_-]{22}\.(jpg|png|gif|webp))$/;

/** The storage key behind an answered imageUrl (and a check of its shape). */
function keyOf(imageUrl: string, userId: number, type: UploadImageType): string {
  const match = KEY_IN_URL.exec(imageUrl);
  expect(match).not.toBeNull();
  expect(Number(match![2])).toBe(userId);
  expect(match![3]).toBe(type);
  return match![1];
}

/**
 * The images pages show, and those they no longer do: the uploads queue removes what pages sends it
 * ('pages.delete-uploads', when a page is deleted or an edit replaces or clears an image) unless some page
 * still shows it (pages' answer to `UploadUsage`), and the scheduled sweep removes old uploads no page ever
 * showed. Pages is the test app's stand-in; the real page saves leading to removal are tested in the gateway
 * (uploads-across-services.int-spec.ts).
 */
describe.each([localUploadStore(), s3rverUploadStore()])('images of pages stored in the $name', (store) => {
  let t: UploadsTestApp;
  let storage: Storage;

  beforeAll(async () => {
    t = await UploadsTestApp.start(await store.start());
    storage = t.app.get(Storage);
    expect(storage).toBeInstanceOf(store.kind === 'local' ? LocalStorage : S3Storage);
    await t.startWorker();
  });

  afterAll(async () => {
    await t?.close();
    await store.stop();
  });

  async function uploaded(creator: Creator, type: UploadImageType, file?: Buffer): Promise<string> {
    const answer = await upload(creator.client, type, imageForm(file ?? (await makeImage(300, 200))));
    expect(answer.status).toBe(201);
    return answer.body.imageUrl as string;
  }

  const gone = (key: string) => pollUntil(() => storage.exists(key), (exists) => !exists, 15_000);

  it('removes a deleted page’s images, but keeps one that another page still shows', async () => {
    const owner = await t.creator();
    const main = await uploaded(owner, 'main', await makeImage(800, 600));
    const favicon = await uploaded(owner, 'favicon', await makeImage(64, 64, 'png'));
    const background = await uploaded(owner, 'background', await makeImage(1200, 800));
    // 'Use Main Image' copies the main image into the sharing image.
    const first = t.pages.create(owner.id, { imageUrl: main, metaImageUrl: main, faviconUrl: favicon, backgroundImage: background });
    // The creator reuses the background on a second page.
    const second = t.pages.create(owner.id, { backgroundImage: background });
    const keys = {
      main: keyOf(main, owner.id, 'main'),
      favicon: keyOf(favicon, owner.id, 'favicon'),
      background: keyOf(background, owner.id, 'background'),
    };

    await t.pages.delete(first);
    expect(await gone(keys.main)).toBe(false);
    expect(await gone(keys.favicon)).toBe(false);
    expect((await servedBytes(t.origin, main)).status).toBe(404);
    // Still on the second page.
    expect(await storage.exists(keys.background)).toBe(true);
    expect((await servedBytes(t.origin, background)).status).toBe(200);
    expect(await store.keys(`u${owner.id}/`)).toEqual([keys.background]);

    await t.pages.delete(second);
    expect(await gone(keys.background)).toBe(false);
    expect(await store.keys(`u${owner.id}/`)).toEqual([]);
  });

  it('removes an image an edit replaces or clears, but not one the page still shows elsewhere', async () => {
    const owner = await t.creator();
    const [main, newMain, favicon] = [await uploaded(owner, 'main'), await uploaded(owner, 'main'), await uploaded(owner, 'favicon')];
    const page = t.pages.create(owner.id, { imageUrl: main, metaImageUrl: main, faviconUrl: favicon });

    // A new main image: the old one stays, as it is still the sharing image ('Use Main Image').
    await t.pages.update(page, { imageUrl: newMain });
    // The favicon is cleared: it goes.
    await t.pages.update(page, { faviconUrl: null });
    expect(await gone(keyOf(favicon, owner.id, 'favicon'))).toBe(false);
    expect(await storage.exists(keyOf(main, owner.id, 'main'))).toBe(true);

    // The sharing image follows the new main image: now the old one goes too.
    await t.pages.update(page, { metaImageUrl: newMain });
    expect(await gone(keyOf(main, owner.id, 'main'))).toBe(false);
    expect(await storage.exists(keyOf(newMain, owner.id, 'main'))).toBe(true);
    expect((await servedBytes(t.origin, newMain)).status).toBe(200);
  });

  it('keeps an image a page of another creator shows under its absolute URL', async () => {
    const owner = await t.creator();
    const other = await t.creator();
    const [main, favicon] = [await uploaded(owner, 'main'), await uploaded(owner, 'favicon')];
    const page = t.pages.create(owner.id, { imageUrl: main, faviconUrl: favicon });
    t.pages.create(other.id, { backgroundImage: `${t.config.appOrigin}${main}` });

    // One job names both: once the favicon is gone, the job is done.
    await t.pages.delete(page);
    expect(await gone(keyOf(favicon, owner.id, 'favicon'))).toBe(false);
    expect(await storage.exists(keyOf(main, owner.id, 'main'))).toBe(true);
    expect((await servedBytes(t.origin, main)).status).toBe(200);
  });

  describe('the sweep of uploads never saved to a page', () => {
    it('removes an old upload no page shows; keeps a fresh one, and old ones shown by an image field or the rich text', async () => {
      const owner = await t.creator();
      const [orphan, fresh, inField, inText] = [await uploaded(owner, 'main'), await uploaded(owner, 'main'), await uploaded(owner, 'background'), await uploaded(owner, 'main')];
      const keys = {
        orphan: keyOf(orphan, owner.id, 'main'),
        fresh: keyOf(fresh, owner.id, 'main'),
        inField: keyOf(inField, owner.id, 'background'),
        inText: keyOf(inText, owner.id, 'main'),
      };
      // The rich text embeds an image by its absolute URL.
      t.pages.create(owner.id, { backgroundImage: inField, subtext: `<p>Have a look:</p><p><img src="${t.config.appOrigin}${inText}"></p>` });
      for (const key of [keys.orphan, keys.inField, keys.inText]) await store.age(key, 25);
      await store.age(keys.fresh, 23);

      // The uploads of the other tests above are all fresh: only what this test aged is old enough.
      const sweep = t.worker!.get(SweepUploadsService);
      const result = await sweep.execute();
      expect(result).toMatchObject({ removed: 1, kept: 2 });
      expect(result.fresh).toBeGreaterThanOrEqual(1);
      expect(await storage.exists(keys.orphan)).toBe(false);
      expect((await servedBytes(t.origin, orphan)).status).toBe(404);
      for (const key of [keys.fresh, keys.inField, keys.inText]) expect(await storage.exists(key)).toBe(true);

      // A later sweep with the clock two days on takes the fresh one too, but still not the ones in use.
      const later = await sweep.execute({ now: new Date(Date.now() + 48 * 3_600_000) });
      expect(await storage.exists(keys.fresh)).toBe(false);
      expect(later.kept).toBeGreaterThanOrEqual(2);
      for (const key of [keys.inField, keys.inText]) expect(await storage.exists(key)).toBe(true);
      expect((await servedBytes(t.origin, inField)).status).toBe(200);
    });

    it('runs as the scheduled job on the uploads queue', async () => {
      const queue = t.uploadsQueue();
      const pattern = await pollUntil(async () => (await queue.getJobScheduler('pages.sweep-uploads'))?.pattern ?? null, (p) => p === '0 */6 * * *', 10_000);
      expect(pattern).toBe('0 */6 * * *');
      // 00:00, 06:00, 12:00 and 18:00 UTC, as the job's contract declares.
      expect(JOBS['pages.sweep-uploads'].repeat).toMatchObject({ pattern });
      expect((await queue.getJobScheduler('pages.sweep-uploads'))?.tz).toBe('UTC');
      // Another worker starting upserts the same schedule: still one.
      await t.worker!.get(RecurringJobs).schedule();
      expect(await queue.getJobSchedulersCount()).toBe(1);

      const owner = await t.creator();
      const orphan = keyOf(await uploaded(owner, 'favicon', await makeImage(64, 64, 'png')), owner.id, 'favicon');
      await store.age(orphan, 30);
      await t.app.get(JobQueue).addMany([{ name: 'pages.sweep-uploads', envelope: { payload: { v: 1 }, meta: { correlationId: 'test-sweep', recordedAt: new Date().toISOString() } } }]);
      expect(await gone(orphan)).toBe(false);
    });
  });
});
