import sharp from 'sharp';
import { MAX_IMAGE_BYTES, type UploadImageType } from '@plink/contracts';
import { LocalStorage, S3Storage, Storage } from '@plink/storage';
import { localUploadStore, s3rverUploadStore } from '@plink/testing';
import { makeAnimation, makeBmp, makeImage, noisePng, photoWithExif } from '../testing/test-images';
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

async function collect(body: NodeJS.ReadableStream): Promise<Buffer[]> {
  const chunks: Buffer[] = [];
  for await (const chunk of body as AsyncIterable<Buffer>) chunks.push(chunk);
  return chunks;
}

describe.each([localUploadStore(), s3rverUploadStore()])('image uploads stored in the $name', (store) => {
  let t: UploadsTestApp;
  let storage: Storage;
  let creator: Creator;

  beforeAll(async () => {
    t = await UploadsTestApp.start(await store.start());
    storage = t.app.get(Storage);
    expect(storage).toBeInstanceOf(store.kind === 'local' ? LocalStorage : S3Storage);
    creator = await t.creator();
  });

  afterAll(async () => {
    await t?.close();
    await store.stop();
  });

  const cases: [UploadImageType, () => Promise<Buffer>, { format: string; type: string; width: number; height: number }][] = [
    ['main', () => makeImage(3000, 2000), { format: 'jpeg', type: 'image/jpeg', width: 1600, height: 1067 }],
    ['background', () => makeImage(4000, 1000, 'png'), { format: 'jpeg', type: 'image/jpeg', width: 2560, height: 640 }],
    ['favicon', () => makeImage(500, 300, 'webp'), { format: 'png', type: 'image/png', width: 64, height: 64 }],
    ['meta', () => makeImage(2000, 2000), { format: 'jpeg', type: 'image/jpeg', width: 1200, height: 630 }],
    // An animation stays one (its frames: process-image.service.spec).
    ['main', () => makeAnimation(2000, 1000, 'gif'), { format: 'gif', type: 'image/gif', width: 1600, height: 800 }],
    ['background', () => makeAnimation(800, 600, 'webp'), { format: 'webp', type: 'image/webp', width: 800, height: 600 }],
    // A Windows bitmap, read by Plink's own decoder (../images/bmp).
    ['main', async () => makeBmp(Array.from({ length: 300 }, () => Array.from({ length: 400 }, () => 0x2266aa)), { bpp: 24 }), { format: 'jpeg', type: 'image/jpeg', width: 400, height: 300 }],
  ];

  it.each(cases)('stores a %s image sized for its use and serves it from its URL', async (type, make, expected) => {
    const answer = await upload(creator.client, type, imageForm(await make()));
    expect(answer.status).toBe(201);
    expect(Object.keys(answer.body)).toEqual(['imageUrl']);
    const key = keyOf(answer.body.imageUrl, creator.id, type);

    // Stored by the adapter under exactly that key…
    expect(await store.keys(`u${creator.id}/`)).toContain(key);
    const stored = await storage.get(key);
    expect(stored!.contentType).toBe(expected.type);
    const storedBytes = Buffer.concat(await collect(stored!.body));

    // …and what the browser gets from the URL is that image, resized and re-encoded.
    const served = await servedBytes(t.origin, answer.body.imageUrl);
    expect(served.status).toBe(200);
    expect(served.headers.get('content-type')).toBe(expected.type);
    expect(served.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
    expect(served.body.equals(storedBytes)).toBe(true);
    expect(await sharp(served.body).metadata()).toMatchObject({ format: expected.format, width: expected.width, height: expected.height });
  });

  it('stores a photo upright and without its metadata (no EXIF: camera, owner, orientation)', async () => {
    const answer = await upload(creator.client, 'main', imageForm(await photoWithExif(600, 400), 'IMG_0001.JPG', 'image/jpeg'));
    expect(answer.status).toBe(201);
    const served = await servedBytes(t.origin, answer.body.imageUrl);
    const meta = await sharp(served.body).metadata();
    expect(meta).toMatchObject({ width: 400, height: 600 });
    expect(meta.exif).toBeUndefined();
    expect(meta.orientation).toBeUndefined();
    expect(served.body.toString('latin1')).not.toContain('Jane Private');
  });

  it('refuses an image over 2 MB with the message the user sees and stores nothing', async () => {
    const someone = await t.creator();
    const big = await noisePng(1000, 800);
    expect(big.length).toBeGreaterThan(MAX_IMAGE_BYTES);
    const answer = await upload(someone.client, 'main', imageForm(big));
    expect(answer.status).toBe(413);
    expect(answer.body).toEqual({ message: 'Image must be less than 2MB in size.' });
    expect(await store.keys(`u${someone.id}/`)).toEqual([]);
  });
});
