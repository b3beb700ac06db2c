import { readFileSync } from 'node:fs';
import { OPENAPI_FILE } from './api-docs/api-docs';
import { routeTable } from './testing/route-table';
import { startTestGateway, type TestGateway } from './testing/test-gateway';

/**
 * The API reference as the running gateway serves it (/api/docs: a page whose scripts and styles are its
 * own files, so the app's Content-Security-Policy lets it work; /api/docs/openapi.json: the committed
 * document), that it covers every route the gateway serves, and the sign-in screen's friendly addresses.
 */

/** Routes that are not part of the API: the SPA and its files, and the reference's own page and assets. */
// `/fonts` and `/uploads` without a file name only answer 404 (the router ignores a trailing slash).
const NOT_API = [/^\/$/, /^\/\*$/, /^\/(fonts|uploads)$/, /^\/api\/docs(\/|$)/, /^\/(assets|examples)\//, /\.[a-z0-9]{1,8}$/i, /^\/admin\/queues\/./];

let gateway: TestGateway;
beforeAll(async () => {
  gateway = await startTestGateway({ OPERATOR_PASSWORD: 'operator-secret-for-tests' });
});
afterAll(async () => {
  await gateway?.close();
});

describe('/api/docs', () => {
  it('answers the committed document at /api/docs/openapi.json', async () => {
    const res = await fetch(`${gateway.origin}/api/docs/openapi.json`);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^application\/json/);
    expect(await res.text()).toBe(readFileSync(OPENAPI_FILE, 'utf8'));
  });

  it('answers a page under the app policy whose scripts and styles all come from this server', async () => {
    const res = await fetch(`${gateway.origin}/api/docs`);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^text\/html/);
    expect(res.headers.get('content-security-policy')).toContain("script-src 'self'");
    const html = await res.text();
    expect(html).toContain('Plink API reference');
    // No inline script (the policy would refuse it); every script and stylesheet is a file here that answers.
    expect([...html.matchAll(/<script(?![^>]*\bsrc=)[^>]*>\s*\S/g)]).toEqual([]);
    const assets = [...html.matchAll(/<(?:script[^>]*\bsrc|link[^>]*\bhref)="([^"]+)"/g)].map(([, url]) => url);
    expect(assets.length).toBeGreaterThanOrEqual(3);
    for (const asset of assets) {
      expect(asset).not.toMatch(/^(https?:)?\/\//);
      const file = await fetch(new URL(asset, `${gateway.origin}/api/docs`));
      expect({ asset, status: file.status }).toEqual({ asset, status: 200 });
    }
    const init = await (await fetch(`${gateway.origin}/api/docs/swagger-ui-init.js`)).text();
    expect(init).toContain('"title": "Plink API"');
  });
});

describe('the reference covers the gateway', () => {
  it('documents every route the gateway serves, and serves every route it documents', async () => {
    const documented = JSON.parse(readFileSync(OPENAPI_FILE, 'utf8')) as { paths: Record<string, Record<string, unknown>> };
    const served = routeTable(gateway.app.getHttpAdapter().getInstance());
    // Compared without parameter names (Fastify names a node's parameter after the first route that declared
    // it: `/p/:slug/:slug` is `/p/{username}/{slug}`) or a trailing slash.
    const toPattern = (path: string) => path.replace(/\{\w+\}|:\w+|\*$/g, ':').replace(/(.)\/$/, '$1');
    const documentedCalls = new Set(
      Object.entries(documented.paths).flatMap(([path, item]) => Object.keys(item).map((m) => `${m.toUpperCase()} ${toPattern(path)}`)),
    );

    const undocumented: string[] = [];
    for (const route of served) {
      if (NOT_API.some((re) => re.test(route.path))) continue;
      for (const method of route.methods) {
        if (method === 'HEAD' || method === 'OPTIONS') continue;
        const call = `${method} ${toPattern(route.path)}`;
        if (!documentedCalls.has(call)) undocumented.push(call);
      }
    }
    expect(undocumented).toEqual([]);

    const servedCalls = new Set(served.flatMap((r) => r.methods.map((m) => `${m} ${toPattern(r.path)}`)));
    // printRoutes leaves out the uploads' wildcard route (registered with a method list); ask for it by name.
    if (gateway.app.getHttpAdapter().getInstance().hasRoute({ method: 'GET', url: '/uploads/*' })) servedCalls.add('GET /uploads/:');
    // The verification link's page is one of the app's screens, served by the `/:slug` route.
    const missing = [...documentedCalls].filter((call) => !servedCalls.has(call) && call !== 'GET /verify-email');
    expect(missing).toEqual([]);
  });
});

describe('friendly addresses of the sign-in screen', () => {
  const redirect = (path: string, method = 'GET') => fetch(`${gateway.origin}${path}`, { method, redirect: 'manual' });

  it('sends /login to the Login tab and /register and /signup to the Register tab with 302', async () => {
    for (const [path, target] of [
      ['/login', '/auth'],
      ['/register', '/auth?tab=register'],
      ['/signup', '/auth?tab=register'],
    ]) {
      const res = await redirect(path);
      expect({ path, status: res.status, location: res.headers.get('location') }).toEqual({ path, status: 302, location: target });
    }
    expect((await redirect('/login', 'HEAD')).status).toBe(302);
  });

  it('keeps the query string (a chosen template still reaches the register form)', async () => {
    expect((await redirect('/signup?template=photo-guide')).headers.get('location')).toBe('/auth?tab=register&template=photo-guide');
    expect((await redirect('/login?tab=register&next=%2Fsettings')).headers.get('location')).toBe('/auth?next=%2Fsettings');
  });

  it('lands on the sign-in screen of the app', async () => {
    const res = await fetch(`${gateway.origin}/register`);
    expect(res.status).toBe(200);
    expect(res.url).toBe(`${gateway.origin}/auth?tab=register`);
    expect(res.headers.get('content-type')).toMatch(/^text\/html/);
  });
});
