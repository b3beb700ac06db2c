import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import sharp from 'sharp';
import { CommonMessages } from '@plink/contracts';
import { Storage } from '@plink/storage';
import { rawRequest } from '@plink/testing';
import { UploadsTestApp, imageForm, upload, type Creator } from '../testing/uploads-test-app';

/**
 * `/uploads/{key}` served through the Storage port, as the gateway mounts it beside the upload call (see
 * UploadsTestApp). That it answers ahead of the SPA fallback, and the pages worker removing a deleted
 * page's images, are tested in the gateway.
 */
describe('uploads: serving what was uploaded', () => {
  let t: UploadsTestApp;
  let base: string;
  let creator: Creator;

  beforeAll(async () => {
    base = await mkdtemp(join(tmpdir(), 'plink-uploads-served-'));
    // A file beside the uploads folder: no URL may reach it.
    await writeFile(join(base, 'secret.txt'), 'top secret');
    t = await UploadsTestApp.start({ UPLOADS_DIR: join(base, 'uploads') });
    creator = await t.creator();
  });

  afterAll(async () => {
    await t?.close();
    if (base) await rm(base, { recursive: true, force: true });
  });

  async function uploadMain(): Promise<string> {
    const photo = await sharp({ create: { width: 2400, height: 1600, channels: 3, background: '#228866' } }).jpeg().toBuffer();
    const response = await upload(creator.client, 'main', imageForm(photo, 'photo.jpg', 'image/jpeg'));
    expect(response.status).toBe(201);
    const { imageUrl } = response.body as { imageUrl: string };
    expect(imageUrl).toMatch(new RegExp(`^/uploads/u${creator.id}/main-[A-Za-z0-9_-]{22}\\.jpg$`));
    return imageUrl;
  }

  /** A request sent with its path exactly as written (fetch would normalise `..` away). */
  async function rawGet(path: string, method = 'GET'): Promise<{ status: number; headers: Record<string, unknown>; body: string }> {
    const answer = await rawRequest(t.origin, path, { method });
    return { status: answer.status, headers: answer.headers, body: answer.raw.toString('utf8') };
  }

  it('serves an upload with its type, length and a year of immutable caching', async () => {
    const imageUrl = await uploadMain();
    const response = await fetch(t.origin + imageUrl);
    const body = Buffer.from(await response.arrayBuffer());
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('image/jpeg');
    expect(response.headers.get('content-length')).toBe(String(body.length));
    expect(response.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
    expect(response.headers.get('x-content-type-options')).toBe('nosniff');
    expect(response.headers.get('content-security-policy')).toContain("default-src 'none'");
    expect(response.headers.get('content-disposition')).toBeNull();
    expect(await sharp(body).metadata()).toMatchObject({ format: 'jpeg', width: 1600, height: 1067 });
  });

  it('answers HEAD with the same headers and no body', async () => {
    const imageUrl = await uploadMain();
    const get = await fetch(t.origin + imageUrl);
    const size = (await get.arrayBuffer()).byteLength;
    const head = await rawGet(imageUrl, 'HEAD');
    expect(head.status).toBe(200);
    expect(head.headers['content-type']).toBe('image/jpeg');
    expect(head.headers['content-length']).toBe(String(size));
    expect(head.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    expect(head.body).toBe('');
  });

  it('answers a missing upload with a JSON 404', async () => {
    for (const path of [`/uploads/u${creator.id}/main-AAAAAAAAAAAAAAAAAAAAAA.jpg`, '/uploads/nothing-here', '/uploads/']) {
      const response = await rawGet(path);
      expect({ path, status: response.status, body: JSON.parse(response.body) }).toEqual({ path, status: 404, body: { message: CommonMessages.notFound } });
      expect(response.headers['cache-control']).toBe('no-cache');
    }
  });

  it('never lets a path leave the uploads folder', async () => {
    await uploadMain();
    for (const path of [
      '/uploads/../secret.txt',
      '/uploads/../../package.json',
      '/uploads/%2e%2e/secret.txt',
      '/uploads/%2E%2E%2Fsecret.txt',
      '/uploads/..%2fsecret.txt',
      '/uploads/..%5csecret.txt',
      `/uploads/u${creator.id}/..%2f..%2fsecret.txt`,
      '/uploads//etc/passwd',
      '/uploads/%2fetc%2fpasswd',
      '/uploads/.%00./secret.txt',
      '/uploads/./secret.txt',
    ]) {
      const response = await rawGet(path);
      expect({ path, status: response.status }).toEqual({ path, status: 404 });
      expect(response.body).not.toContain('top secret');
      expect(response.body).not.toContain('"name"');
    }
  });

  it('sends anything stored that is not an image as a download', async () => {
    await t.app.get(Storage).put('stray/page.html', Buffer.from('<script>alert(1)</script>'), 'text/html');
    const response = await fetch(`${t.origin}/uploads/stray/page.html`);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-disposition')).toBe('attachment');
    expect(response.headers.get('content-security-policy')).toContain('sandbox');
    await response.arrayBuffer();
  });
});
