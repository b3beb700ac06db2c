import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import sharp from 'sharp';
import { CommonMessages } from '@plink/contracts';
import { SESSION_COOKIE } from '@plink/identity';
import { rawRequest } from '@plink/testing';
import { TestBrowser } from './testing/http-client';
import { startTestGateway, type TestGateway } from './testing/test-gateway';

/**
 * Uploads where they meet the rest of the gateway (the serving and the upload call themselves are tested in
 * libs/uploads): multipart only for the upload call, `/uploads/{key}` ahead of the SPA fallback, and the
 * pages worker (PLINK_WORKERS=pages) removing a deleted page's images.
 */
describe('uploads, across the gateway', () => {
  let gateway: TestGateway;
  let base: string;
  let creator: { id: number; cookie: string; browser: TestBrowser };

  beforeAll(async () => {
    base = await mkdtemp(join(tmpdir(), 'plink-gateway-uploads-'));
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
    return ((await response.json()) as { imageUrl: string }).imageUrl;
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

  it('answers a missing upload with a JSON 404, not the SPA', async () => {
    for (const path of [`/uploads/u${creator.id}/main-AAAAAAAAAAAAAAAAAAAAAA.jpg`, '/uploads/nothing-here', '/uploads/']) {
      const answer = await rawRequest(gateway.origin, path, { method: 'GET' });
      expect({ path, status: answer.status, body: JSON.parse(answer.raw.toString('utf8')) }).toEqual({ path, status: 404, body: { message: CommonMessages.notFound } });
    }
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
