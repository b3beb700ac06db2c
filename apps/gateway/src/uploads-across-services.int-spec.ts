import sharp from 'sharp';
import { CommonMessages, JOBS, QueueName } from '@plink/contracts';
import { SESSION_COOKIE } from '@plink/identity';
import { JobQueue } from '@plink/queue';
import { localUploadStore, pollUntil, rawRequest } from '@plink/testing';
import { TestBrowser } from './testing/http-client';
import { startTestGateway, type TestGateway } from './testing/test-gateway';

/**
 * Uploads where they meet the rest of the gateway (the serving, the upload call and what the uploads queue
 * does with the images pages names are tested in libs/uploads): multipart only for the upload call,
 * `/uploads/{key}` ahead of the SPA fallback, and real page saves through the pages API reaching the
 * uploads queue run beside the pages worker (PLINK_WORKERS=pages), which asks the pages service which
 * images its pages show.
 */
describe('uploads, across the gateway', () => {
  const store = localUploadStore();
  let gateway: TestGateway;
  let creator: { id: number; cookie: string; browser: TestBrowser };

  beforeAll(async () => {
    gateway = await startTestGateway({ ...(await store.start()), PLINK_WORKERS: 'pages', AUTH_RATE_LIMIT_PER_MINUTE: '0' });
    const browser = gateway.browser();
    const registered = await browser.post('/api/register', { username: `uploader_${Date.now()}`, email: `uploader.${Date.now()}@example.com`, password: 'uploader-secret' });
    expect(registered.status).toBe(201);
    // Pro: the tests below keep several pages.
    await gateway.db.query('update identity.users set is_verified = true, is_premium = true where id = $1', [registered.body.id]);
    creator = { id: registered.body.id, cookie: `${SESSION_COOKIE}=${browser.cookie(SESSION_COOKIE)}`, browser };
  });

  afterAll(async () => {
    await gateway?.close();
    await store.stop();
  });

  async function uploadMain(type = 'main'): Promise<string> {
    const form = new FormData();
    const photo = await sharp({ create: { width: 2400, height: 1600, channels: 3, background: '#228866' } }).jpeg().toBuffer();
    form.append('image', new Blob([new Uint8Array(photo)], { type: 'image/jpeg' }), 'photo.jpg');
    const response = await fetch(`${gateway.origin}/api/upload-image?type=${type}`, { method: 'POST', headers: { cookie: creator.cookie }, body: form });
    expect(response.status).toBe(201);
    return ((await response.json()) as { imageUrl: string }).imageUrl;
  }

  async function served(url: string): Promise<number> {
    const response = await fetch(gateway.origin + url);
    await response.arrayBuffer();
    return response.status;
  }

  const removed = (url: string) => pollUntil(() => served(url), (status) => status !== 200, 15_000);

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

  it('removes a deleted page’s images (the pages worker in the gateway process), but not one another page shows', async () => {
    const [imageUrl, backgroundImage] = [await uploadMain(), await uploadMain('background')];
    const created = await creator.browser.post('/api/pages', { slug: `uploads-${Date.now()}`, imageUrl, metaImageUrl: imageUrl, backgroundImage });
    expect(created.status).toBe(201);
    expect((await creator.browser.post('/api/pages', { slug: `reuse-${Date.now()}`, backgroundImage })).status).toBe(201);
    expect(await served(imageUrl)).toBe(200);
    expect((await creator.browser.request('DELETE', `/api/pages/${created.body.id}`)).status).toBe(200);
    // In the Trash the page keeps its images; deleted forever, they go.
    expect(await served(imageUrl)).toBe(200);
    expect((await creator.browser.request('DELETE', `/api/trash/${created.body.id}`)).status).toBe(200);
    expect(await removed(imageUrl)).toBe(404);
    // One job named both: the background, on the other page, stays.
    expect(await served(backgroundImage)).toBe(200);
  });

  it('removes the image an edit drops, not one the page still shows (its main image copied as the sharing image)', async () => {
    const [main, newMain, favicon] = [await uploadMain(), await uploadMain(), await uploadMain('favicon')];
    const created = await creator.browser.post('/api/pages', { slug: `edit-${Date.now()}`, imageUrl: main, metaImageUrl: main, faviconUrl: favicon });
    expect(created.status).toBe(201);
    const id = created.body.id;

    expect((await creator.browser.request('PUT', `/api/pages/${id}`, { imageUrl: newMain, faviconUrl: null })).status).toBe(200);
    expect(await removed(favicon)).toBe(404);
    expect(await served(main)).toBe(200);

    expect((await creator.browser.request('PUT', `/api/pages/${id}`, { metaImageUrl: newMain })).status).toBe(200);
    expect(await removed(main)).toBe(404);
    expect(await served(newMain)).toBe(200);
  });

  it('sweeps unsaved uploads on the schedule the pages worker sets, keeping those a page shows in a field or its rich text', async () => {
    const queue = gateway.app.get(JobQueue).queue(QueueName.Uploads);
    const scheduled = await pollUntil(async () => (await queue.getJobScheduler('pages.sweep-uploads'))?.pattern ?? null, (p) => p !== null, 10_000);
    expect(JOBS['pages.sweep-uploads'].repeat).toMatchObject({ pattern: scheduled });

    const [orphan, inField, inText] = [await uploadMain(), await uploadMain('background'), await uploadMain()];
    const key = (url: string) => url.slice('/uploads/'.length);
    // The rich text embeds an image by its absolute URL, and keeps it through the page's sanitizing.
    const subtext = `<p>Have a look:</p><p><img src="${gateway.config.appOrigin}${inText}"></p>`;
    const page = await creator.browser.post('/api/pages', { slug: `sweep-${Date.now()}`, backgroundImage: inField, subtext });
    expect(page.status).toBe(201);
    expect(page.body.subtext).toContain(key(inText));
    for (const url of [orphan, inField, inText]) await store.age(key(url), 25);

    await gateway.app.get(JobQueue).addMany([{ name: 'pages.sweep-uploads', envelope: { payload: { v: 1 }, meta: { correlationId: 'test-sweep', recordedAt: new Date().toISOString() } } }]);
    expect(await removed(orphan)).toBe(404);
    // One sweep decides on all three before it removes any: the two in use stay.
    expect(await served(inField)).toBe(200);
    expect(await served(inText)).toBe(200);
  });
});
