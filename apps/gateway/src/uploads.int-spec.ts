import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import sharp from 'sharp';
import { CommonMessages } from '@plink/contracts';
import { SESSION_COOKIE } from '@plink/identity';
import { Storage } from '@plink/storage';
import { rawRequest } from '@plink/testing';
import { TestBrowser } from './testing/http-client';
import { startTestGateway, type TestGateway } from './testing/test-gateway';

/**
 * Uploads through the whole gateway: the upload call, `/uploads/{key}` served through the Storage port
 * ahead of the SPA fallback, and the pages worker (PLINK_WORKERS=pages) removing a deleted page's images.
 */
describe('uploads, through the gateway', () => {
  let gateway: TestGateway;
  let base: string;
  let creator: { id: number; cookie: string; browser: TestBrowser };

  beforeAll(async () => {
    base = await mkdtemp(join(tmpdir(), 'plink-gateway-uploads-'));
    // A file beside the uploads folder: no URL may reach it.
    await writeFile(join(base, 'secret.txt'), 'top secret');
    gateway = await startTestGateway({ UPLOADS_DIR: join(base, 'uploads'), PLINK_WORKERS: 'pages', AUTH_RATE_LIMIT_PER_MINUTE: '0' });
    const browser = gateway.browser();
    const registered = await browser.post('/api/register', { username: `uploader_${Date.now()}`, email: `uploader.${Date.now()}@example.com`, password: 'uploader-secret' });
    expect(registered.status).toBe(201);
    await gateway.db.query('update identity.users set is_verified = true where id = $1', [registered.body.id]);
    creator = { id: registered.body.id, cookie: `${SESSION_COOKIE}=${browser.cookie(SESSION_COOKIE)}`, browser };
  });

  afterAll(async () => {
    await gateway?.close();
    if (base) await rm(base, { recursive: true, force: true });
  });

  async function uploadMain(): Promise<string> {
    const form = new FormData();
    const photo = await sharp({ create: { width: 2400, height: 1600, channels: 3, background: '#228866' } }).jpeg().toBuffer();
    form.append('image', new Blob([new Uint8Array(photo)], { type: 'image/jpeg' }), 'photo.jpg');
    const response = await fetch(`${gateway.origin}/api/upload-image?type=main`, { method: 'POST', headers: { cookie: creator.cookie }, body: form });
    expect(response.status).toBe(201);
    const { imageUrl } = (await response.json()) as { imageUrl: string };
    expect(imageUrl).toMatch(new RegExp(`^/uploads/u${creator.id}/main-[A-Za-z0-9_-]{22}\\.jpg$`));
    return imageUrl;
  }

  /** A request sent with its path exactly as written (fetch would normalise `..` away). */
  async function rawGet(path: string, method = 'GET'): Promise<{ status: number; headers: Record<string, unknown>; body: string }> {
    const answer = await rawRequest(gateway.origin, path, { method });
    return { status: answer.status, headers: answer.headers, body: answer.raw.toString('utf8') };
  }

  it('keeps multipart to the upload call: the JSON calls (here identity’s logout) still refuse a form with 415', async () => {
    const form = new FormData();
    const picture = await sharp({ create: { width: 10, height: 10, channels: 3, background: '#228866' } }).png().toBuffer();
    form.append('image', new Blob([new Uint8Array(picture)], { type: 'image/png' }), 'a.png');
    const answer = await fetch(`${gateway.origin}/api/logout`, { method: 'POST', headers: { cookie: creator.cookie }, body: form });
    expect(answer.status).toBe(415);
    // Refused before it did anything: still signed in.
    expect((await fetch(`${gateway.origin}/api/user`, { headers: { cookie: creator.cookie } })).status).toBe(200);
  });

  it('serves an upload with its type, length and a year of immutable caching', async () => {
    const imageUrl = await uploadMain();
    const response = await fetch(gateway.origin + imageUrl);
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
    const get = await fetch(gateway.origin + imageUrl);
    const size = (await get.arrayBuffer()).byteLength;
    const head = await rawGet(imageUrl, 'HEAD');
    expect(head.status).toBe(200);
    expect(head.headers['content-type']).toBe('image/jpeg');
    expect(head.headers['content-length']).toBe(String(size));
    expect(head.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    expect(head.body).toBe('');
  });

  it('answers a missing upload with a JSON 404, not the SPA', async () => {
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
    await gateway.app.get(Storage).put('stray/page.html', Buffer.from('<script>alert(1)</script>'), 'text/html');
    const response = await fetch(`${gateway.origin}/uploads/stray/page.html`);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-disposition')).toBe('attachment');
    expect(response.headers.get('content-security-policy')).toContain('sandbox');
    await response.arrayBuffer();
  });

  it('removes a deleted page’s images (the pages worker in the gateway process)', async () => {
    const imageUrl = await uploadMain();
    const created = await creator.browser.post('/api/pages', { slug: `uploads-${Date.now()}`, imageUrl, metaImageUrl: imageUrl });
    expect(created.status).toBe(201);
    expect((await fetch(gateway.origin + imageUrl)).status).toBe(200);
    expect((await creator.browser.request('DELETE', `/api/pages/${created.body.id}`)).status).toBe(200);
    const deadline = Date.now() + 15_000;
    let status = 200;
    while (status === 200 && Date.now() < deadline) {
      await new Promise((r) => setTimeout(r, 100));
      const response = await fetch(gateway.origin + imageUrl);
      status = response.status;
      await response.arrayBuffer();
    }
    expect(status).toBe(404);
  });
});
