import { once } from 'node:events';
import { connect, type AddressInfo } from 'node:net';
import { mkdtemp, readdir, rm, utimes } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { basename, dirname, join, relative } from 'node:path';
import sharp from 'sharp';
import { IdentityMessages, MAX_IMAGE_BYTES, QueueName, UploadMessages, type UploadImageType } from '@plink/contracts';
import { JobQueue, LocalStorage, S3Storage, Storage } from '@plink/platform';
import { PagesTestApp, waitFor, type Creator, type TestClient } from '../testing/pages-test-app';
import { FAKE_PNG, HTML, PDF, SVG, TEXT, icoWithPng, makeAnimation, makeBmp, makeImage, noisePng, photoWithExif } from '../testing/test-images';
import { UPLOADS_PER_MINUTE } from './upload-image.service';
import { SWEEP_UPLOADS_PATTERN, SWEEP_UPLOADS_SCHEDULER_ID, SweepUploadsScheduler } from './sweep-uploads.scheduler';
import { SweepUploadsService } from './sweep-uploads.service';

/** The part of @20minutes/s3rver (untyped) these tests use; it accepts the fixed credentials S3RVER / S3RVER. */
interface S3rverServer {
  run(): Promise<AddressInfo>;
  close(): Promise<void>;
}
const S3rver = require('@20minutes/s3rver') as new (options: { port: number; address: string; silent: boolean; directory: string }) => S3rverServer;

/** One storage adapter, as the app is configured for it, with a way to see every key it holds. */
interface Adapter {
  name: string;
  start(): Promise<Record<string, string>>;
  keys(storage: Storage, prefix: string): Promise<string[]>;
  /** Makes the stored object look `hours` old (the file time the adapter reports as lastModified). */
  age(key: string, hours: number): Promise<void>;
  stop(): Promise<void>;
}

const hoursAgo = (hours: number) => new Date(Date.now() - hours * 3_600_000);

function localAdapter(): Adapter {
  let dir: string;
  return {
    name: 'local folder',
    async start() {
      dir = await mkdtemp(join(tmpdir(), 'plink-uploads-'));
      return { UPLOADS_DIR: dir };
    },
    async keys(storage, prefix) {
      expect(storage).toBeInstanceOf(LocalStorage);
      const entries = await readdir(dir, { recursive: true, withFileTypes: true }).catch(() => []);
      return entries
        .filter((e) => e.isFile() && !e.name.includes('~'))
        .map((e) => relative(dir, join(e.parentPath, e.name)))
        .filter((key) => key.startsWith(prefix));
    },
    async age(key, hours) {
      await utimes(join(dir, key), hoursAgo(hours), hoursAgo(hours));
    },
    async stop() {
      if (dir) await rm(dir, { recursive: true, force: true });
    },
  };
}

const S3_TEST_BUCKET = 'plink-uploads-test';

function s3Adapter(): Adapter {
  let dir: string;
  let server: S3rverServer;
  return {
    name: 'S3 (s3rver)',
    async start() {
      dir = await mkdtemp(join(tmpdir(), 'plink-s3rver-'));
      server = new S3rver({ port: 0, address: '127.0.0.1', silent: true, directory: dir });
      const { port } = await server.run();
      return {
        S3_ENDPOINT: '127.0.0.1',
        S3_PORT: String(port),
        S3_USE_SSL: 'false',
        S3_ACCESS_KEY: 'S3RVER',
        S3_SECRET_KEY: 'S3RVER',
        S3_BUCKET: S3_TEST_BUCKET,
      };
    },
    async keys(storage, prefix) {
      expect(storage).toBeInstanceOf(S3Storage);
      const s3 = storage as S3Storage;
      const names: string[] = [];
      for await (const item of s3.client.listObjectsV2(s3.bucket, prefix, true)) if (item.name) names.push(item.name);
      return names;
    },
    async age(key, hours) {
      // s3rver keeps each object as `{bucket}/{folders}/{name}._S3rver_object` and reports its file time.
      await utimes(join(dir, S3_TEST_BUCKET, dirname(key), `${basename(key)}._S3rver_object`), hoursAgo(hours), hoursAgo(hours));
    },
    async stop() {
      await server?.close();
      if (dir) await rm(dir, { recursive: true, force: true });
    },
  };
}

function imageForm(file: Buffer, filename = 'picture.png', contentType = 'image/png', field = 'image'): FormData {
  const form = new FormData();
  form.append(field, new Blob([new Uint8Array(file)], { type: contentType }), filename);
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

async function servedBytes(t: PagesTestApp, url: string): Promise<{ status: number; headers: Headers; body: Buffer }> {
  const response = await fetch(t.origin + url);
  return { status: response.status, headers: response.headers, body: Buffer.from(await response.arrayBuffer()) };
}

describe.each([localAdapter(), s3Adapter()])('image uploads through the $name adapter', (adapter) => {
  let t: PagesTestApp;
  let storage: Storage;
  let creator: Creator;

  beforeAll(async () => {
    t = await PagesTestApp.start(await adapter.start());
    await t.startWorker();
    storage = t.app.get(Storage);
    creator = await t.creator({ premium: true });
  });

  afterAll(async () => {
    await t?.close();
    await adapter.stop();
  });

  const cases: [UploadImageType, () => Promise<Buffer>, { format: string; type: string; width: number; height: number }][] = [
    ['main', () => makeImage(3000, 2000), { format: 'jpeg', type: 'image/jpeg', width: 1600, height: 1067 }],
    ['background', () => makeImage(4000, 1000, 'png'), { format: 'jpeg', type: 'image/jpeg', width: 2560, height: 640 }],
    ['favicon', () => makeImage(500, 300, 'webp'), { format: 'png', type: 'image/png', width: 64, height: 64 }],
    ['meta', () => makeImage(2000, 2000), { format: 'jpeg', type: 'image/jpeg', width: 1200, height: 630 }],
    // An animation stays one (its frames: process-image.service.spec).
    ['main', () => makeAnimation(2000, 1000, 'gif'), { format: 'gif', type: 'image/gif', width: 1600, height: 800 }],
    ['background', () => makeAnimation(800, 600, 'webp'), { format: 'webp', type: 'image/webp', width: 800, height: 600 }],
    // A Windows bitmap, read by Plink's own decoder (./bmp).
    ['main', async () => makeBmp(Array.from({ length: 300 }, () => Array.from({ length: 400 }, () => 0x2266aa)), { bpp: 24 }), { format: 'jpeg', type: 'image/jpeg', width: 400, height: 300 }],
  ];

  it.each(cases)('stores a %s image sized for its use and serves it from its URL', async (type, make, expected) => {
    const answer = await upload(creator.client, type, imageForm(await make()));
    expect(answer.status).toBe(201);
    expect(Object.keys(answer.body)).toEqual(['imageUrl']);
    const key = keyOf(answer.body.imageUrl, creator.id, type);

    // Stored by the adapter under exactly that key…
    expect(await adapter.keys(storage, `u${creator.id}/`)).toContain(key);
    const stored = await storage.get(key);
    expect(stored!.contentType).toBe(expected.type);
    const storedBytes = Buffer.concat(await collect(stored!.body));

    // …and what the browser gets from the URL is that image, resized and re-encoded.
    const served = await servedBytes(t, answer.body.imageUrl);
    expect(served.status).toBe(200);
    expect(served.headers.get('content-type')).toBe(expected.type);
    expect(served.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
    expect(served.body.equals(storedBytes)).toBe(true);
    expect(await sharp(served.body).metadata()).toMatchObject({ format: expected.format, width: expected.width, height: expected.height });
  });

  it('stores a photo upright and without its metadata (no EXIF: camera, owner, orientation)', async () => {
    const answer = await upload(creator.client, 'main', imageForm(await photoWithExif(600, 400), 'IMG_0001.JPG', 'image/jpeg'));
    expect(answer.status).toBe(201);
    const served = await servedBytes(t, answer.body.imageUrl);
    const meta = await sharp(served.body).metadata();
    expect(meta).toMatchObject({ width: 400, height: 600 });
    expect(meta.exif).toBeUndefined();
    expect(meta.orientation).toBeUndefined();
    expect(served.body.toString('latin1')).not.toContain('Jane Private');
  });

  it('refuses an image over 2 MB with the SPEC message and stores nothing', async () => {
    const someone = await t.creator();
    const big = await noisePng(1000, 800);
    expect(big.length).toBeGreaterThan(MAX_IMAGE_BYTES);
    const answer = await upload(someone.client, 'main', imageForm(big));
    expect(answer.status).toBe(413);
    expect(answer.body).toEqual({ message: 'Image must be less than 2MB in size.' });
    expect(await adapter.keys(storage, `u${someone.id}/`)).toEqual([]);
  });

  it('removes a deleted page’s uploads, but keeps one that another page still shows', async () => {
    const owner = await t.creator({ premium: true });
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
    expect((await servedBytes(t, main)).status).toBe(404);
    // Still on the second page.
    expect(await storage.exists(keys.background)).toBe(true);
    expect((await servedBytes(t, background)).status).toBe(200);

    expect((await owner.client.delete(`/api/pages/${second.body.id}`)).status).toBe(200);
    expect((await waitFor(() => storage.exists(keys.background), false, 15_000)).value).toBe(false);
  });

  it('removes an image an edit replaces or clears, but not one the page still shows elsewhere', async () => {
    const owner = await t.creator();
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
    expect((await servedBytes(t, newMain)).status).toBe(200);
  });

  describe('the sweep of uploads never saved to a page', () => {
    it('removes an old upload no page shows; keeps a fresh one, and old ones shown by an image field or the rich text', async () => {
      const owner = await t.creator();
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
      for (const key of [keys.orphan, keys.inField, keys.inText]) await adapter.age(key, 25);
      await adapter.age(keys.fresh, 23);

      // The uploads of the other tests above are all fresh: only what this test aged is old enough.
      const result = await t.worker!.get(SweepUploadsService).execute();
      expect(result).toMatchObject({ removed: 1, kept: 2 });
      expect(result.fresh).toBeGreaterThanOrEqual(1);
      expect(await storage.exists(keys.orphan)).toBe(false);
      expect((await servedBytes(t, orphan)).status).toBe(404);
      for (const key of [keys.fresh, keys.inField, keys.inText]) expect(await storage.exists(key)).toBe(true);

      // A later sweep with the clock two days on takes the fresh one too, but still not the ones in use.
      const later = await t.worker!.get(SweepUploadsService).execute({ now: new Date(Date.now() + 48 * 3_600_000) });
      expect(await storage.exists(keys.fresh)).toBe(false);
      expect(later.kept).toBeGreaterThanOrEqual(2);
      for (const key of [keys.inField, keys.inText]) expect(await storage.exists(key)).toBe(true);
      expect((await servedBytes(t, inField)).status).toBe(200);
    });

    it('runs as the scheduled job on the uploads queue', async () => {
      const queue = t.worker!.get(JobQueue).queue(QueueName.Uploads);
      const scheduler = await waitFor(async () => (await queue.getJobScheduler(SWEEP_UPLOADS_SCHEDULER_ID))?.pattern ?? null, SWEEP_UPLOADS_PATTERN, 10_000);
      expect(scheduler.value).toBe(SWEEP_UPLOADS_PATTERN);
      // Another pages worker starting upserts the same schedule: still one.
      await t.worker!.get(SweepUploadsScheduler).schedule();
      expect(await queue.getJobSchedulersCount()).toBe(1);

      const owner = await t.creator();
      const orphan = keyOf((await upload(owner.client, 'favicon', imageForm(await makeImage(64, 64, 'png')))).body.imageUrl, owner.id, 'favicon');
      await adapter.age(orphan, 30);
      await t.worker!.get(JobQueue).add('pages.sweep-uploads', { payload: { v: 1 }, meta: { correlationId: 'test-sweep', recordedAt: new Date().toISOString() } });
      expect((await waitFor(() => storage.exists(orphan), false, 15_000)).value).toBe(false);
    });
  });
});

async function collect(body: NodeJS.ReadableStream): Promise<Buffer[]> {
  const chunks: Buffer[] = [];
  for await (const chunk of body as AsyncIterable<Buffer>) chunks.push(chunk);
  return chunks;
}

describe('image uploads: what is refused', () => {
  let t: PagesTestApp;
  let dir: string;
  let creator: Creator;

  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'plink-uploads-'));
    t = await PagesTestApp.start({ UPLOADS_DIR: dir });
    creator = await t.creator();
  });

  afterAll(async () => {
    await t?.close();
    await rm(dir, { recursive: true, force: true });
  });

  const storedFiles = async (userId: number) => (await readdir(join(dir, `u${userId}`)).catch(() => [] as string[])).filter((f) => !f.includes('~'));

  it('judges a file by its bytes: text, HTML, SVG or PDF under an image name and type are refused', async () => {
    const someone = await t.creator();
    for (const [file, name, type] of [
      [TEXT, 'x.png', 'image/png'],
      [HTML, 'cat.png', 'image/png'],
      [SVG, 'logo.svg', 'image/svg+xml'],
      [SVG, 'logo.png', 'image/png'],
      [PDF, 'flyer.jpg', 'image/jpeg'],
      [FAKE_PNG, 'broken.png', 'image/png'],
    ] as const) {
      for (const imageType of ['main', 'favicon'] as const) {
        const answer = await upload(someone.client, imageType, imageForm(file, name, type));
        expect({ name, imageType, status: answer.status, body: answer.body }).toEqual({
          name,
          imageType,
          status: 400,
          body: { message: 'Only image files are allowed.' },
        });
      }
    }
    expect(await storedFiles(someone.id)).toEqual([]);
  });

  it('accepts an image whatever its name and declared type say', async () => {
    const answer = await upload(creator.client, 'main', imageForm(await makeImage(200, 100, 'webp'), 'notes.txt', 'text/plain'));
    expect(answer.status).toBe(201);
    expect(answer.body.imageUrl).toMatch(/\.jpg$/);
  });

  it('accepts a .ico favicon that holds a PNG', async () => {
    const answer = await upload(creator.client, 'favicon', imageForm(await icoWithPng(48), 'favicon.ico', 'image/x-icon'));
    expect(answer.status).toBe(201);
    const served = await servedBytes(t, answer.body.imageUrl);
    expect(await sharp(served.body).metadata()).toMatchObject({ format: 'png', width: 64, height: 64 });
  });

  it('takes exactly 2 MB, and refuses one byte more', async () => {
    const jpeg = await makeImage(400, 300);
    // Bytes after a JPEG's end marker are ignored by decoders: an image of exactly the limit.
    const exact = Buffer.concat([jpeg, Buffer.alloc(MAX_IMAGE_BYTES - jpeg.length)]);
    expect((await upload(creator.client, 'main', imageForm(exact, 'a.jpg', 'image/jpeg'))).status).toBe(201);
    const over = Buffer.concat([exact, Buffer.alloc(1)]);
    const answer = await upload(creator.client, 'main', imageForm(over, 'a.jpg', 'image/jpeg'));
    expect(answer.status).toBe(413);
    expect(answer.body).toEqual({ message: UploadMessages.tooLarge });
  });

  it('answers 413 at once to a body announced as huge, without waiting for it', async () => {
    const answer = await rawUpload(t.origin, creator.client.cookieHeader(), { 'content-length': String(50 * 1024 * 1024) }, 0);
    expect(answer.status).toBe(413);
    expect(answer.body).toEqual({ message: UploadMessages.tooLarge });
    expect(answer.sentBeforeAnswer).toBeLessThan(64 * 1024);
    // Nothing more comes: the server lets the connection go after a few seconds.
    expect(answer.closedByServer).toBe(true);
  });

  it('answers 413 to an endless streamed body soon after 2 MB, then stops listening to it', async () => {
    const answer = await rawUpload(t.origin, creator.client.cookieHeader(), { 'transfer-encoding': 'chunked' }, 200 * 1024 * 1024);
    expect(answer.status).toBe(413);
    expect(answer.body).toEqual({ message: UploadMessages.tooLarge });
    expect(answer.sentBeforeAnswer).toBeLessThan(16 * 1024 * 1024);
    // The server reads on a little (so the client sees the answer), then drops the connection, long
    // before the 200 MB are through.
    expect(answer.closedByServer).toBe(true);
    expect(answer.sentInTotal).toBeLessThan(60 * 1024 * 1024);
  });

  it('needs a session: 401 and nothing stored for a signed-out visitor', async () => {
    const allFiles = async () => (await readdir(dir, { recursive: true })).length;
    const before = await allFiles();
    const answer = await upload(t.client(), 'main', imageForm(await makeImage(100, 100)));
    expect(answer.status).toBe(401);
    expect(answer.body).toEqual({ message: IdentityMessages.notSignedIn });
    expect(await allFiles()).toBe(before);
  });

  it('needs a verified e-mail address', async () => {
    const unverified = await t.creator({ verified: false });
    const answer = await upload(unverified.client, 'main', imageForm(await makeImage(100, 100)));
    expect(answer.status).toBe(403);
    expect(answer.body).toEqual({ message: UploadMessages.verifyFirst });
    expect(await storedFiles(unverified.id)).toEqual([]);
  });

  it('names the four types when the type is missing or unknown', async () => {
    for (const query of ['', '?type=avatar', '?type=MAIN', '?type=main&type=meta']) {
      const answer = await creator.client.request('POST', `/api/upload-image${query}`, imageForm(await makeImage(10, 10)));
      expect({ query, status: answer.status, body: answer.body }).toEqual({
        query,
        status: 400,
        body: { message: 'Image type must be one of: main, favicon, background, meta.' },
      });
    }
  });

  it('asks for the image when the field is missing, misnamed or empty, or the body is not a form', async () => {
    const onlyText = new FormData();
    onlyText.append('title', 'hello');
    for (const body of [
      onlyText,
      imageForm(await makeImage(10, 10), 'a.png', 'image/png', 'file'),
      imageForm(Buffer.alloc(0)),
      { image: 'data:image/png;base64,iVBORw0KGgo=' },
      undefined,
    ]) {
      const answer = await creator.client.request('POST', '/api/upload-image?type=main', body);
      expect(answer.status).toBe(400);
      expect(answer.body).toEqual({ message: UploadMessages.missingImage });
    }
    const plain = await fetch(`${t.origin}/api/upload-image?type=main`, {
      method: 'POST',
      headers: { cookie: creator.client.cookieHeader(), 'content-type': 'text/plain' },
      body: 'hello',
    });
    expect(plain.status).toBe(400);
    expect(await plain.json()).toEqual({ message: UploadMessages.missingImage });
  });

  it('refuses a form stuffed with fields', async () => {
    const form = new FormData();
    for (let i = 0; i < 20; i += 1) form.append(`f${i}`, 'x');
    form.append('image', new Blob([new Uint8Array(await makeImage(10, 10, 'png'))]), 'a.png');
    const answer = await creator.client.request('POST', '/api/upload-image?type=main', form);
    expect(answer.status).toBe(400);
    expect(answer.body).toEqual({ message: UploadMessages.oneImageOnly });
  });

  it('keeps multipart to this one call: the JSON calls still refuse a form with 415', async () => {
    const form = imageForm(await makeImage(10, 10));
    form.append('slug', `form-${Date.now()}`);
    const answer = await creator.client.request('POST', '/api/pages', form);
    expect(answer.status).toBe(415);
    expect((await creator.client.get('/api/pages')).body).toEqual([]);
  });

  it(`allows ${UPLOADS_PER_MINUTE} uploads a minute per user, then answers 429`, async () => {
    const busy = await t.creator();
    const tiny = await makeImage(8, 8, 'png');
    // Counted per clock minute: should the minute turn during the loop, the limit is reached in the next one.
    let allowed = 0;
    let refused: Awaited<ReturnType<typeof upload>> | undefined;
    while (!refused && allowed <= 2 * UPLOADS_PER_MINUTE) {
      const answer = await upload(busy.client, 'favicon', imageForm(tiny));
      if (answer.status === 201) allowed += 1;
      else refused = answer;
    }
    expect(allowed).toBeGreaterThanOrEqual(UPLOADS_PER_MINUTE);
    expect(refused?.status).toBe(429);
    expect(refused?.body).toEqual({ message: UploadMessages.tooManyUploads });
    expect(Number(refused?.headers.get('retry-after'))).toBeGreaterThan(0);
  });
});

/** Waits for `promise`, at most `ms` (without keeping the process alive afterwards). */
async function within(promise: Promise<unknown>, ms: number): Promise<void> {
  let timer: NodeJS.Timeout | undefined;
  await Promise.race([promise, new Promise((resolve) => (timer = setTimeout(resolve, ms)))]);
  clearTimeout(timer);
}

/**
 * A hand-made upload over one TCP connection: the request head, the multipart preamble of an `image` part,
 * then (chunked) 1 MB chunks of zeros, up to `bodyBytes`, for as long as the server keeps the connection
 * open. Bytes count as sent once the connection took them, so a server that stops reading stops the count.
 */
async function rawUpload(
  origin: string,
  cookie: string,
  headers: Record<string, string>,
  bodyBytes: number,
): Promise<{ status: number; body: unknown; sentBeforeAnswer: number; sentInTotal: number; closedByServer: boolean }> {
  const { hostname, port } = new URL(origin);
  const socket = connect({ host: hostname, port: Number(port) });
  await once(socket, 'connect');
  const boundary = 'plink-test-boundary';
  const chunked = headers['transfer-encoding'] === 'chunked';
  const head = [
    'POST /api/upload-image?type=main HTTP/1.1',
    `host: ${hostname}:${port}`,
    `cookie: ${cookie}`,
    `content-type: multipart/form-data; boundary=${boundary}`,
    ...Object.entries(headers).map(([name, value]) => `${name}: ${value}`),
    '',
    '',
  ].join('\r\n');
  let received = '';
  let sent = 0;
  let sentBeforeAnswer = -1;
  let closedByServer = false;
  let closed = false;
  socket.on('data', (data: Buffer) => {
    received += data.toString('latin1');
    if (sentBeforeAnswer < 0 && received.includes('\r\n\r\n')) sentBeforeAnswer = sent;
  });
  const ended = new Promise<void>((resolve) => {
    const gone = () => {
      closedByServer ||= !closed;
      closed = true;
      resolve();
    };
    socket.once('end', gone); // the server closed its side
    socket.once('error', gone); // the server dropped the connection (ECONNRESET, EPIPE)
    socket.once('close', gone);
  });
  const write = (data: Buffer | string) =>
    new Promise<void>((resolve) => {
      if (closed || socket.destroyed) return resolve();
      socket.write(data, (err) => {
        if (!err) sent += Buffer.byteLength(data);
        resolve();
      });
    });
  const frame = (data: Buffer) => (chunked ? Buffer.concat([Buffer.from(`${data.length.toString(16)}\r\n`), data, Buffer.from('\r\n')]) : data);
  await write(head);
  await write(frame(Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="image"; filename="big.jpg"\r\nContent-Type: image/jpeg\r\n\r\n`)));
  const chunk = frame(Buffer.alloc(1024 * 1024));
  const deadline = Date.now() + 20_000;
  while (sent < bodyBytes && !closed && Date.now() < deadline) await write(chunk);
  await within(ended, 10_000);
  closed = true;
  socket.destroy();
  const [statusLine, ...rest] = received.split('\r\n');
  const body = rest.join('\r\n').split('\r\n\r\n').slice(1).join('\r\n\r\n');
  return { status: Number(statusLine.split(' ')[1]), body: JSON.parse(body), sentBeforeAnswer, sentInTotal: sent, closedByServer };
}
