import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { brotliCompressSync, gzipSync } from 'node:zlib';
import { decodedBody, rawRequest, type RawAnswer } from '@plink/testing';
import { startTestGateway, type TestGateway } from './testing/test-gateway';

/**
 * How the gateway delivers the SPA to a browser: the home, terms and privacy pages as prerendered HTML to
 * signed-out visitors (their content is in the first answer, before any script runs) and the bare shell to
 * a signed-in user; hashed assets precompressed (brotli, gzip) and cached a year; index.html never cached;
 * HTML and JSON answers compressed when large enough, tiny ones sent as they are.
 *
 * The web build is stood in for by a folder laid out as `npm run build` writes apps/web/dist.
 */

const SHELL = '<!doctype html><html lang="en"><head><title>Plink</title></head><body><div id="root"></div><script type="module" src="/assets/index-abc123.js"></script></body></html>';
const prerendered = (content: string) => SHELL.replace('<div id="root"></div>', `<div id="root">${content}</div>`);
/** Large enough to be worth compressing, like the real home page's markup. */
const HOME_MARKUP = `<main><h1>Collect emails fast</h1>${'<p>Beautiful landing pages in seconds.</p>'.repeat(200)}</main>`;
const ASSET = `export const app = ${JSON.stringify('x'.repeat(4000))};\n`;

/** A GET as a browser sends it, answered without the transparent decoding fetch() does. */
const rawGet = (origin: string, path: string, headers: Record<string, string> = {}): Promise<RawAnswer> => rawRequest(origin, path, { headers });
const decoded = decodedBody;

/** The document as served: the gateway names the landing pages' origin (PUBLIC_ORIGIN) in a <meta>. */
let served = (html: string) => html;

const vary = (answer: RawAnswer) => String(answer.headers.vary ?? '').toLowerCase();

describe('SPA delivery: prerendered public screens, compression and caching', () => {
  let gateway: TestGateway;
  let dist: string;

  beforeAll(async () => {
    dist = mkdtempSync(join(tmpdir(), 'plink-web-dist-'));
    mkdirSync(join(dist, 'assets'));
    mkdirSync(join(dist, 'prerendered'));
    writeFileSync(join(dist, 'index.html'), SHELL);
    writeFileSync(join(dist, 'prerendered', 'index.html'), prerendered(HOME_MARKUP));
    writeFileSync(join(dist, 'prerendered', 'terms.html'), prerendered('<h1>Terms of Service</h1>'));
    writeFileSync(join(dist, 'prerendered', 'privacy.html'), prerendered('<h1>Privacy Policy</h1>'));
    writeFileSync(join(dist, 'assets', 'index-abc123.js'), ASSET);
    writeFileSync(join(dist, 'assets', 'index-abc123.js.br'), brotliCompressSync(ASSET));
    writeFileSync(join(dist, 'assets', 'index-abc123.js.gz'), gzipSync(ASSET));
    writeFileSync(join(dist, 'favicon.svg'), '<svg xmlns="http://www.w3.org/2000/svg"/>');
    writeFileSync(join(dist, 'favicon.ico'), Buffer.from([0, 0, 1, 0]));
    gateway = await startTestGateway({ WEB_DIST_DIR: dist });
    const { publicOrigin } = gateway.config;
    if (publicOrigin) served = (html) => html.replace('</head>', `<meta name="plink-public-origin" content="${publicOrigin}">\n</head>`);
  });

  afterAll(async () => {
    await gateway?.close();
    rmSync(dist, { recursive: true, force: true });
  });

  it('answers a signed-out visitor the home, terms and privacy pages with their content in the HTML', async () => {
    const home = await rawGet(gateway.origin, '/');
    expect(home.status).toBe(200);
    expect(home.headers['content-type']).toBe('text/html; charset=utf-8');
    expect(home.headers['cache-control']).toBe('no-cache');
    expect(decoded(home)).toContain('<h1>Collect emails fast</h1>');
    // Still the app: its policy allows only its own scripts, and the bundle hydrates the markup.
    expect(home.headers['content-security-policy']).toContain("script-src 'self'");
    expect(decoded(home)).toContain('src="/assets/index-abc123.js"');

    expect(decoded(await rawGet(gateway.origin, '/terms'))).toContain('<h1>Terms of Service</h1>');
    expect(decoded(await rawGet(gateway.origin, '/privacy?from=footer'))).toContain('<h1>Privacy Policy</h1>');
  });

  it('answers other app screens, and every screen of a signed-in user, with the bare shell', async () => {
    expect(decoded(await rawGet(gateway.origin, '/dashboard'))).toBe(served(SHELL));
    expect(decoded(await rawGet(gateway.origin, '/auth?tab=register'))).toBe(served(SHELL));

    const browser = gateway.browser();
    const registered = await browser.post('/api/register', { username: `home_${Date.now()}`, email: `home.${Date.now()}@example.com`, password: 'home-secret-1' });
    expect(registered.status).toBe(201);
    const cookie = `theme=light; plink_session=${browser.cookie('plink_session')}`;
    for (const path of ['/', '/terms', '/privacy']) {
      const answer = await rawGet(gateway.origin, path, { cookie });
      expect({ path, html: decoded(answer) }).toEqual({ path, html: served(SHELL) });
      // A cache must not give one visitor's answer to the other.
      expect(vary(answer)).toContain('cookie');
    }
    // Another cookie alone is no session.
    expect(decoded(await rawGet(gateway.origin, '/', { cookie: 'theme=light; plink_session_hint=1' }))).toContain('Collect emails fast');
  });

  it("answers the app's screens 200 and any other path it hands to the app 404, with the same document", async () => {
    for (const path of ['/dashboard', '/Settings/', '/editor/new', '/stats/12', '/checkout/success?session_id=x', '/verify-email?token=t']) {
      const answer = await rawGet(gateway.origin, path);
      expect({ path, status: answer.status, html: decoded(answer) }).toEqual({ path, status: 200, html: served(SHELL) });
    }
    // Two segments (the gateway's fallback), a reserved word of one (the landing pages' route hands it over),
    // a screen's path with more after it: no screen, so a 404 a link checker sees, and the app says so.
    for (const path of ['/a/b', '/admin', '/pricing', '/dashboard/x', '/editor/1/2', '/checkout/cancel']) {
      const answer = await rawGet(gateway.origin, path);
      expect({ path, status: answer.status, html: decoded(answer) }).toEqual({ path, status: 404, html: served(SHELL) });
      expect(answer.headers['cache-control']).toBe('no-cache');
    }
  });

  it('lets a sandboxed landing page (an opaque origin) show the tab icon: no same-origin resource policy on it', async () => {
    for (const path of ['/favicon.ico', '/favicon.svg']) {
      const answer = await rawGet(gateway.origin, path, { origin: 'null', 'sec-fetch-site': 'cross-site', 'sec-fetch-dest': 'image' });
      expect({ path, status: answer.status, policy: answer.headers['cross-origin-resource-policy'] }).toEqual({ path, status: 200, policy: undefined });
    }
    // The app's own files keep the app's headers.
    expect((await rawGet(gateway.origin, '/assets/index-abc123.js')).headers['cross-origin-resource-policy']).toBe('same-origin');
  });

  it('compresses a large HTML answer for browsers that accept it (brotli first, else gzip), not for others', async () => {
    const br = await rawGet(gateway.origin, '/', { 'accept-encoding': 'gzip, deflate, br' });
    expect(br.headers['content-encoding']).toBe('br');
    expect(vary(br)).toContain('accept-encoding');
    expect(br.raw.length).toBeLessThan(prerendered(HOME_MARKUP).length / 4);
    expect(decoded(br)).toBe(served(prerendered(HOME_MARKUP)));

    const gz = await rawGet(gateway.origin, '/', { 'accept-encoding': 'gzip' });
    expect(gz.headers['content-encoding']).toBe('gzip');
    expect(decoded(gz)).toBe(served(prerendered(HOME_MARKUP)));

    const plain = await rawGet(gateway.origin, '/');
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(plain.raw.toString('utf8')).toBe(served(prerendered(HOME_MARKUP)));
  });

  it('sends tiny answers uncompressed', async () => {
    const shell = await rawGet(gateway.origin, '/dashboard', { 'accept-encoding': 'br, gzip' });
    expect(shell.raw.length).toBeLessThan(1024);
    expect(shell.headers['content-encoding']).toBeUndefined();
    expect(shell.raw.toString('utf8')).toBe(served(SHELL));

    const missingApi = await rawGet(gateway.origin, '/api/no-such-call', { 'accept-encoding': 'br, gzip' });
    expect(missingApi.status).toBe(404);
    expect(missingApi.headers['content-encoding']).toBeUndefined();
  });

  it('compresses a large JSON answer, not a streamed download', async () => {
    const browser = gateway.browser();
    const t = Date.now().toString(36);
    const registered = await browser.post('/api/register', { username: `json_${t}`, email: `json.${t}@example.com`, password: 'json-secret-1' });
    expect(registered.status).toBe(201);
    await gateway.db.query('update identity.users set is_verified = true where id = $1', [registered.body.id]);
    const created = await browser.post('/api/pages', { slug: `json-${t}`, title: 'A long page', subtext: 'Words and more words. '.repeat(60) });
    expect(created.status).toBe(201);

    const cookie = `plink_session=${browser.cookie('plink_session')}`;
    const pages = await rawGet(gateway.origin, '/api/pages', { cookie, 'accept-encoding': 'gzip' });
    expect(pages.status).toBe(200);
    expect(pages.headers['content-encoding']).toBe('gzip');
    expect(JSON.parse(decoded(pages))[0]).toMatchObject({ slug: `json-${t}`, title: 'A long page' });

    // A streamed answer (the leads' CSV export) goes as it is, even to a client that accepts compression.
    const exported = await rawGet(gateway.origin, `/api/pages/${created.body.id}/export`, { cookie, 'accept-encoding': 'br, gzip' });
    expect(exported.status).toBe(200);
    expect(exported.headers['content-type']).toMatch(/^text\/csv/);
    expect(exported.headers['content-encoding']).toBeUndefined();
    expect(exported.raw.toString('utf8')).toMatch(/^email,created_at,consent_at,page_slug,status,confirmed_at,consent_version,signup_ip,source,referrer,ref,source_param,utm_source,utm_medium,utm_campaign,device\n/);
  });

  it('serves hashed assets precompressed and cached a year, other files briefly, index.html never', async () => {
    const br = await rawGet(gateway.origin, '/assets/index-abc123.js', { 'accept-encoding': 'gzip, deflate, br' });
    expect(br.status).toBe(200);
    expect(br.headers['content-encoding']).toBe('br');
    expect(br.headers['content-type']).toMatch(/javascript/);
    expect(vary(br)).toContain('accept-encoding');
    expect(br.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    expect(decoded(br)).toBe(ASSET);

    const gz = await rawGet(gateway.origin, '/assets/index-abc123.js', { 'accept-encoding': 'gzip' });
    expect(gz.headers['content-encoding']).toBe('gzip');
    expect(decoded(gz)).toBe(ASSET);

    const plain = await rawGet(gateway.origin, '/assets/index-abc123.js');
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(plain.raw.toString('utf8')).toBe(ASSET);

    expect((await rawGet(gateway.origin, '/favicon.svg')).headers['cache-control']).toBe('public, max-age=300');
    expect((await rawGet(gateway.origin, '/index.html')).headers['cache-control']).toBe('no-cache');
    // The prerendered files answer only at their pages' paths, under the session rule.
    expect((await rawGet(gateway.origin, '/prerendered/index.html')).status).toBe(404);
  });
});
