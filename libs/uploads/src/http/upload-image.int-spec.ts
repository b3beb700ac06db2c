import { once } from 'node:events';
import { connect } from 'node:net';
import { mkdtemp, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import sharp from 'sharp';
import { IdentityMessages, MAX_IMAGE_BYTES, UploadMessages } from '@plink/contracts';
import { FAKE_PNG, HTML, PDF, SVG, TEXT, icoWithPng, makeImage } from '../testing/test-images';
import { UploadsTestApp, imageForm, servedBytes, upload, type Creator } from '../testing/uploads-test-app';
import { UPLOADS_PER_MINUTE } from '../use-cases/upload-image.service';

describe('image uploads: what is refused', () => {
  let t: UploadsTestApp;
  let dir: string;
  let creator: Creator;

  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'plink-uploads-'));
    t = await UploadsTestApp.start({ UPLOADS_DIR: dir });
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
    const served = await servedBytes(t.origin, answer.body.imageUrl);
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
