import { createHash } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import type { PageDto } from '@plink/contracts';
import { FormTokens } from '@plink/crypto';
import { TEST_SESSION_SECRET, rawRequest } from '@plink/testing';
import { TestBrowser } from './testing/http-client';

/** The session cookie's name (identity's own constant is not exported). */
const SESSION_COOKIE = 'plink_session';
import { startTestGateway, type TestGateway } from './testing/test-gateway';

/**
 * The gateway's security headers and the isolation of creators' code, as a browser receives them: the
 * app's policy on the SPA and the API, `no-store` on signed-in JSON, landing pages' own policies (a sandbox
 * for pages carrying their owner's code on a shared host), the submit call's answer to a sandboxed page, and
 * the split between the app's host and the landing pages' host when PUBLIC_ORIGIN is set.
 */

const SANDBOX =
  'sandbox allow-scripts allow-forms allow-popups allow-popups-to-escape-sandbox allow-top-navigation-by-user-activation';
const SNIPPET = '<script>document.title = "owner code ran";</script>';

let n = 0;
const tag = () => `${Date.now().toString(36)}${(n += 1)}`;

/** The policy's directives by name (`script-src` → its sources). */
function directives(csp: string | null): Map<string, string[]> {
  const map = new Map<string, string[]>();
  for (const part of (csp ?? '').split(';')) {
    const [name, ...sources] = part.trim().split(/\s+/);
    if (name) map.set(name, sources);
  }
  return map;
}

/** The sha256 sources of every inline <script> of a document. */
function inlineScriptHashes(html: string): string[] {
  return [...html.matchAll(/<script>([\s\S]*?)<\/script>/g)].map(
    ([, body]) => `'sha256-${createHash('sha256').update(body, 'utf8').digest('base64')}'`,
  );
}

interface Creator {
  browser: TestBrowser;
  username: string;
}

async function creator(gateway: TestGateway, plan: 'free' | 'pro'): Promise<Creator> {
  const b = gateway.browser();
  const t = tag();
  const who = { username: `head_${t}`, email: `head.${t}@example.com`, password: 'creator-secret' };
  const registered = await b.post('/api/register', who);
  expect(registered.status).toBe(201);
  await gateway.db.query('update identity.users set is_verified = true, is_premium = $2 where id = $1', [registered.body.id, plan === 'pro']);
  return { browser: b, username: who.username };
}

async function createPage(owner: Creator, fields: Record<string, unknown> = {}): Promise<PageDto> {
  const res = await owner.browser.post('/api/pages', { slug: `head-${tag()}`, title: 'A landing page', ...fields });
  expect({ status: res.status, body: res.body }).toMatchObject({ status: 201 });
  return res.body as PageDto;
}

function expectAppHeaders(headers: Headers | Record<string, unknown>): void {
  const get = (name: string) => (headers instanceof Headers ? headers.get(name) : ((headers[name] as string | undefined) ?? null));
  const csp = directives(get('content-security-policy'));
  expect(csp.get('default-src')).toEqual(["'self'"]);
  expect(csp.get('script-src')).toEqual(["'self'"]);
  expect(csp.get('frame-ancestors')).toEqual(["'none'"]);
  expect(csp.get('object-src')).toEqual(["'none'"]);
  expect(get('x-frame-options')).toBe('DENY');
  expect(get('x-content-type-options')).toBe('nosniff');
  expect(get('referrer-policy')).toBe('strict-origin-when-cross-origin');
}

describe('security headers on one host (PUBLIC_ORIGIN unset)', () => {
  let gateway: TestGateway;
  let pro: Creator;

  beforeAll(async () => {
    gateway = await startTestGateway({ AUTH_RATE_LIMIT_PER_MINUTE: '1000', LEAD_RATE_LIMIT_PER_MINUTE: '0' });
    pro = await creator(gateway, 'pro');
  });
  afterAll(() => gateway?.close());

  it('gives the SPA the app policy: scripts from the app only, no framing, no HSTS over http', async () => {
    const b = gateway.browser();
    for (const path of ['/', '/dashboard', '/editor/new', '/auth?tab=register']) {
      const res = await b.get(path);
      expect({ path, status: res.status, type: res.headers.get('content-type') }).toEqual({ path, status: 200, type: 'text/html; charset=utf-8' });
      expectAppHeaders(res.headers);
      expect(res.headers.get('strict-transport-security')).toBeNull();
      // The shell names the landing pages' origin for the links the SPA shows (here the app's own).
      expect(res.body).toContain(`<meta name="plink-public-origin" content="${gateway.config.publicOrigin}">`);
    }
  });

  it('answers every API call with the app policy and Cache-Control: no-store, signed in or not', async () => {
    const signedIn = await pro.browser.get('/api/user');
    expect(signedIn.status).toBe(200);
    expect(signedIn.body.username).toBe(pro.username);
    expect(signedIn.headers.get('cache-control')).toBe('no-store');
    expectAppHeaders(signedIn.headers);

    const pages = await pro.browser.get('/api/pages');
    expect(pages.status).toBe(200);
    expect(pages.headers.get('cache-control')).toBe('no-store');

    const anonymous = await gateway.browser().get('/api/user');
    expect(anonymous.status).toBe(401);
    expect(anonymous.headers.get('cache-control')).toBe('no-store');
    const unknown = await gateway.browser().get('/api/no-such-call');
    expect(unknown.status).toBe(404);
    expect(unknown.headers.get('cache-control')).toBe('no-store');
  });

  it('lets a page without its owner’s code run only Plink’s own inline scripts, by hash', async () => {
    const page = await createPage(pro, { subtext: '<p>Hello</p>' });
    const res = await gateway.browser().get(`/${page.slug}`);
    expect(res.status).toBe(200);
    const csp = directives(res.headers.get('content-security-policy'));
    const hashes = inlineScriptHashes(res.body as string);
    expect(hashes).toHaveLength(2); // the page data and the submit script
    expect([...(csp.get('script-src') ?? [])].sort()).toEqual([...hashes].sort());
    expect(csp.get('default-src')).toEqual(["'none'"]);
    expect(csp.get('connect-src')).toEqual(["'self'"]);
    expect(csp.get('form-action')).toEqual(["'self'"]);
    expect(csp.has('sandbox')).toBe(false);
    // Visitor routes skip helmet: no app framing rule on a landing page.
    expect(res.headers.get('x-frame-options')).toBeNull();

    // The thank-you state has one inline script, and its own hash.
    const thanks = await gateway.browser().get(`/${page.slug}?submitted=1`);
    expect(directives(thanks.headers.get('content-security-policy')).get('script-src')).toEqual(inlineScriptHashes(thanks.body as string));

    const missing = await gateway.browser().get(`/no-page-${tag()}`);
    expect(missing.status).toBe(404);
    expect(directives(missing.headers.get('content-security-policy')).get('default-src')).toEqual(["'none'"]);
  });

  it('sandboxes a page that carries custom code or tracking, in every state and on the no-JavaScript error answer', async () => {
    const custom = await createPage(pro, { customCodeSnippet: SNIPPET });
    const tracking = await createPage(pro, { googleAnalyticsId: 'G-TEST123' });
    for (const path of [`/${custom.slug}`, `/${custom.slug}?submitted=1`, `/p/${custom.slug}`, `/p/${pro.username}/${custom.slug}`, `/${tracking.slug}`]) {
      const res = await gateway.browser().get(path);
      expect({ path, status: res.status, csp: res.headers.get('content-security-policy') }).toEqual({ path, status: 200, csp: SANDBOX });
    }
    const page = await gateway.browser().get(`/${custom.slug}`);
    expect(page.body).toContain(SNIPPET);

    // A refused no-JavaScript post draws the page (and its owner's code) again: still sandboxed.
    const refused = await fetch(`${gateway.origin}/${custom.slug}`, {
      method: 'POST',
      redirect: 'manual',
      headers: { 'content-type': 'application/x-www-form-urlencoded', origin: 'null' },
      body: 'email=not-an-address',
    });
    expect(refused.status).toBe(400);
    expect(refused.headers.get('content-security-policy')).toBe(SANDBOX);
    expect(await refused.text()).toContain(SNIPPET);
  });

  it('answers a sandboxed page’s submission (origin null) with CORS, without cookies, and stores the lead', async () => {
    const page = await createPage(pro, { customCodeSnippet: SNIPPET });
    const preflight = await fetch(`${gateway.origin}/api/page/${page.slug}/submit`, {
      method: 'OPTIONS',
      headers: { origin: 'null', 'access-control-request-method': 'POST', 'access-control-request-headers': 'content-type' },
    });
    expect(preflight.status).toBe(204);
    expect(preflight.headers.get('access-control-allow-origin')).toBe('null');
    expect(preflight.headers.get('access-control-allow-methods')).toBe('POST');
    expect(preflight.headers.get('access-control-allow-headers')).toContain('content-type');
    expect(preflight.headers.get('access-control-allow-credentials')).toBeNull();

    const email = `visitor.${tag()}@example.com`;
    const submitted = await gateway.browser().post(`/api/page/${page.slug}/submit`, { email, consent: true }, { origin: 'null' });
    expect(submitted.status).toBe(200);
    expect(submitted.headers.get('access-control-allow-origin')).toBe('null');
    expect(submitted.headers.get('cache-control')).not.toBe('no-store');
    const stored = await gateway.db.query('select count(*)::int as n from leads.leads where page_id = $1 and email_lower = lower($2)', [page.id, email]);
    expect(stored.rows[0].n).toBe(1);

    // Another site's origin is the form embedded there (embed.js): answered too, its origin echoed, no credentials.
    const elsewhere = await fetch(`${gateway.origin}/api/page/${page.slug}/submit`, { method: 'OPTIONS', headers: { origin: 'https://blog.example' } });
    expect(elsewhere.headers.get('access-control-allow-origin')).toBe('https://blog.example');
    expect(elsewhere.headers.get('access-control-allow-credentials')).toBeNull();
    // Every other API call still gives another site nothing to read.
    const other = await fetch(`${gateway.origin}/api/user`, { headers: { origin: 'https://blog.example' } });
    expect(other.headers.get('access-control-allow-origin')).toBeNull();
  });
});

describe('two hosts: PUBLIC_ORIGIN for landing pages, APP_ORIGIN for the app (https)', () => {
  const APP = 'https://app.plink.test';
  const PUBLIC = 'https://pages.plink.test';
  let gateway: TestGateway;
  let fastify: FastifyInstance;
  let pro: Creator;

  beforeAll(async () => {
    gateway = await startTestGateway({ APP_ORIGIN: APP, PUBLIC_ORIGIN: PUBLIC, AUTH_RATE_LIMIT_PER_MINUTE: '1000', LEAD_RATE_LIMIT_PER_MINUTE: '0' });
    fastify = gateway.app.getHttpAdapter().getInstance();
    pro = await creator(gateway, 'pro'); // through 127.0.0.1: any host but the public one is the app's
  });
  afterAll(() => gateway?.close());

  const on = (host: string, method: 'GET' | 'POST', url: string, extra: Record<string, unknown> = {}) =>
    fastify.inject({ method, url, headers: { host: new URL(host).host, ...(extra.headers as object) }, ...(extra.payload ? { payload: extra.payload as string } : {}) });

  it('serves landing pages on the public host only; the app host sends them there', async () => {
    const page = await createPage(pro, { customCodeSnippet: SNIPPET });
    for (const path of [`/${page.slug}`, `/p/${page.slug}`, `/p/${pro.username}/${page.slug}?submitted=1`]) {
      const onApp = await on(APP, 'GET', path);
      expect({ path, status: onApp.statusCode, location: onApp.headers.location }).toEqual({ path, status: 301, location: `${PUBLIC}${path}` });
    }
    const onPublic = await on(PUBLIC, 'GET', `/${page.slug}`);
    expect(onPublic.statusCode).toBe(200);
    expect(onPublic.body).toContain(SNIPPET);
    // Its own host keeps the owner's code away from the app: it runs unsandboxed, as written.
    expect(onPublic.headers['content-security-policy']).toBeUndefined();
    expect(onPublic.headers['strict-transport-security']).toBe('max-age=31536000');
    expect(onPublic.body).toContain(`<link rel="canonical" href="${PUBLIC}/${page.slug}">`);
    expect(onPublic.body).toContain(`<meta property="og:url" content="${PUBLIC}/${page.slug}">`);

    // A page without code keeps its strict policy there too.
    const plain = await createPage(pro);
    const plainRes = await on(PUBLIC, 'GET', `/${plain.slug}`);
    expect(directives(plainRes.headers['content-security-policy'] as string).get('default-src')).toEqual(["'none'"]);
  });

  it('takes the form post and the submit call on the public host', async () => {
    const page = await createPage(pro, { customCodeSnippet: SNIPPET });
    // The page's form token, as a visitor who loaded the page a few seconds ago sends it.
    const formToken = new FormTokens(TEST_SESSION_SECRET).issue(page.id, Date.now() - 5_000);
    const form = await on(PUBLIC, 'POST', `/${page.slug}`, {
      headers: { 'content-type': 'application/x-www-form-urlencoded', origin: PUBLIC },
      payload: `email=form.${tag()}%40example.com&consent=on&formToken=${formToken}`,
    });
    expect({ status: form.statusCode, location: form.headers.location }).toEqual({ status: 303, location: `/${page.slug}?submitted=1` });
    const submit = await on(PUBLIC, 'POST', `/api/page/${page.slug}/submit`, {
      headers: { 'content-type': 'application/json', origin: PUBLIC },
      payload: JSON.stringify({ email: `json.${tag()}@example.com`, consent: true, formToken }),
    });
    expect(submit.statusCode).toBe(200);
    const count = await gateway.db.query('select count(*)::int as n from leads.leads where page_id = $1', [page.id]);
    expect(count.rows[0].n).toBe(2);
    // A form post that reaches the app host is sent on to the public one, still a post.
    const formOnApp = await on(APP, 'POST', `/${page.slug}`, { headers: { 'content-type': 'application/x-www-form-urlencoded' }, payload: 'email=x%40example.com' });
    expect({ status: formOnApp.statusCode, location: formOnApp.headers.location }).toEqual({ status: 308, location: `${PUBLIC}/${page.slug}` });
  });

  it("answers a double opt-in link on the public host, takes its Confirm there, and sends the app host's link there", async () => {
    const page = await createPage(pro, { doubleOptIn: true, fileUrl: 'https://files.example/doi.pdf' });
    const submit = await on(PUBLIC, 'POST', `/api/page/${page.slug}/submit`, {
      headers: { 'content-type': 'application/json', origin: PUBLIC },
      payload: JSON.stringify({ email: `doi.${tag()}@example.com`, consent: true, formToken: new FormTokens(TEST_SESSION_SECRET).issue(page.id, Date.now() - 5_000) }),
    });
    expect(submit.statusCode).toBe(200);
    const lead = (await gateway.db.query('select id, status from leads.leads where page_id = $1', [page.id])).rows[0];
    expect(lead.status).toBe('pending');
    // A link of the lead's own (the e-mailed one's token is sealed in its job; only hashes are kept).
    const token = `gateway-${tag()}-token-0123456789`;
    await gateway.db.query('insert into leads.confirm_tokens (token_hash, lead_id) values ($1, $2)', [createHash('sha256').update(token).digest('hex'), lead.id]);

    const onApp = await on(APP, 'GET', `/confirm/${token}`);
    expect({ status: onApp.statusCode, location: onApp.headers.location }).toEqual({ status: 301, location: `${PUBLIC}/confirm/${token}` });
    const asked = await on(PUBLIC, 'GET', `/confirm/${token}`);
    expect(asked.statusCode).toBe(200);
    expect(asked.body).toContain(`<form method="post" action="/confirm/${token}">`);
    // The app's strict policy fits it: no script, its own form.
    expect(directives(asked.headers['content-security-policy'] as string).get('form-action')).toEqual(["'self'"]);
    expect(directives(asked.headers['content-security-policy'] as string).get('script-src')).toEqual(["'self'"]);
    const confirmed = await on(PUBLIC, 'POST', `/confirm/${token}`, {
      headers: { 'content-type': 'application/x-www-form-urlencoded', origin: PUBLIC },
      payload: '',
    });
    expect(confirmed.statusCode).toBe(200);
    expect(confirmed.body).toContain('href="https://files.example/doi.pdf"');
    const json = await on(PUBLIC, 'POST', `/api/confirm/${token}`, { headers: { origin: PUBLIC } });
    expect({ status: json.statusCode, body: JSON.parse(json.body) }).toEqual({ status: 200, body: { success: true, fileUrl: 'https://files.example/doi.pdf' } });
    expect((await gateway.db.query('select status from leads.leads where id = $1', [lead.id])).rows[0].status).toBe('confirmed');
  });

  it('keeps the app off the public host: the SPA is sent to the app, the API answers 404', async () => {
    const sid = pro.browser.cookie(SESSION_COOKIE);
    expect(sid).toBeTruthy();
    const cookieHeader = `${SESSION_COOKIE}=${sid}`;
    const api = await on(PUBLIC, 'GET', '/api/user', { headers: { cookie: cookieHeader } });
    expect(api.statusCode).toBe(404);
    expect(api.body).not.toContain(pro.username);
    const apiOnApp = await on(APP, 'GET', '/api/user', { headers: { cookie: cookieHeader } });
    expect(apiOnApp.statusCode).toBe(200);
    expect(apiOnApp.headers['strict-transport-security']).toBe('max-age=31536000');

    for (const path of ['/', '/dashboard', '/editor/new']) {
      const res = await on(PUBLIC, 'GET', path);
      expect({ path, status: res.statusCode, location: res.headers.location }).toEqual({ path, status: 302, location: `${APP}${path}` });
    }
    const spa = await on(APP, 'GET', '/dashboard');
    expect(spa.statusCode).toBe(200);
    expectAppHeaders(spa.headers as Record<string, unknown>);
    expect(spa.body).toContain(`<meta name="plink-public-origin" content="${PUBLIC}">`);

    // Both hosts serve what pages and the editor's preview load, and the health probe.
    for (const host of [APP, PUBLIC]) {
      for (const probe of ['/health', '/health/live', '/health/ready']) expect((await on(host, 'GET', probe)).statusCode).toBe(200);
      expect((await on(host, 'GET', '/uploads/u1/none.png')).statusCode).toBe(404);
    }
  });

  it('keeps the host rule for a page answered from memory (over the wire, where a cached page is answered before the router)', async () => {
    const page = await createPage(pro);
    const visit = (host: string, headers: Record<string, string> = {}) =>
      rawRequest(gateway.origin, `/${page.slug}`, { headers: { host: new URL(host).host, ...headers } });
    expect((await visit(PUBLIC)).status).toBe(200); // rendered, now in memory
    const again = await visit(PUBLIC);
    expect(again.status).toBe(200);
    expect(again.headers['strict-transport-security']).toBe('max-age=31536000');
    for (const onApp of [await visit(APP), await visit(APP, { 'x-forwarded-host': new URL(PUBLIC).host })]) {
      expect({ status: onApp.status, location: onApp.headers.location }).toEqual({ status: 301, location: `${PUBLIC}/${page.slug}` });
    }
  });

  it('judges the split on the address as the router decodes it: no spelling serves a page or its owner’s code on the app host', async () => {
    // A slug starting with "m" so that escapes of it may be written in either case (%6d, %6D).
    const page = await createPage(pro, { slug: `my-${tag()}`, customCodeSnippet: SNIPPET });
    const rest = page.slug.slice(1); // the slug without its "m"
    const spellings = [
      `/%6d${rest}`,
      `/%6D${rest}`,
      `/%70/${page.slug}`,
      `/p/%6d${rest}`,
      `/p/%6d${rest}?submitted=1`,
      `/%70/${pro.username}/%6d${rest}`,
      `/${page.slug.replace('-', '%2D')}`,
      `/${page.slug.replace('-', '%2d')}`,
      `/%256d${rest}`,
      `/%2570/${page.slug}`,
      `/${page.slug}%2F`,
      `/${page.slug}%2f?submitted=1`,
      `/./${page.slug}`,
      `//${page.slug}`,
      `//p//${page.slug}`,
      `/p/./${page.slug}`,
      `/${page.slug}/`,
    ];
    for (const path of spellings) {
      for (const answer of [
        await rawRequest(gateway.origin, path, { headers: { host: new URL(APP).host, 'accept-encoding': 'identity' } }),
        await rawRequest(gateway.origin, path, { method: 'HEAD', headers: { host: new URL(APP).host } }),
      ]) {
        const body = answer.raw.toString('utf8');
        expect({ path, code: body.includes(SNIPPET), title: body.includes('A landing page') }).toEqual({ path, code: false, title: false });
        // Anything the router takes for a page is sent to the public host, as the plain spelling is.
        if (answer.status === 301) expect({ path, location: answer.headers.location }).toEqual({ path, location: `${PUBLIC}${path}` });
      }
      const form = await on(APP, 'POST', path, { headers: { 'content-type': 'application/x-www-form-urlencoded' }, payload: `email=enc.${tag()}%40example.com&consent=on` });
      expect({ path, code: form.body.includes(SNIPPET) }).toEqual({ path, code: false });
    }
    // The escapes the router decodes to the page itself are sent to the public host (where the page answers).
    for (const path of [`/%6d${rest}`, `/%70/${page.slug}`, `/p/%6D${rest}?submitted=1`, `/${page.slug.replace('-', '%2D')}`]) {
      const onApp = await rawRequest(gateway.origin, path, { headers: { host: new URL(APP).host } });
      expect({ path, status: onApp.status, location: onApp.headers.location }).toEqual({ path, status: 301, location: `${PUBLIC}${path}` });
      const onPublic = await rawRequest(gateway.origin, path, { headers: { host: new URL(PUBLIC).host, 'accept-encoding': 'identity' } });
      expect({ path, status: onPublic.status, code: onPublic.raw.toString('utf8').includes(SNIPPET) }).toEqual({ path, status: 200, code: true });
    }
    // No form post on the app host stored a lead: each was sent on to the public host.
    const stored = await gateway.db.query('select count(*)::int as n from leads.leads where page_id = $1', [page.id]);
    expect(stored.rows[0].n).toBe(0);
  });

  it('trusts X-Forwarded-Host only behind a trusted proxy (TRUST_PROXY off here)', async () => {
    const page = await createPage(pro);
    const res = await on(APP, 'GET', `/${page.slug}`, { headers: { 'x-forwarded-host': new URL(PUBLIC).host } });
    expect(res.statusCode).toBe(301);
  });
});

describe('two hosts behind a trusted proxy (TRUST_PROXY=1)', () => {
  let gateway: TestGateway;
  beforeAll(async () => {
    gateway = await startTestGateway({ APP_ORIGIN: 'https://app.plink.test', PUBLIC_ORIGIN: 'https://pages.plink.test', TRUST_PROXY: '1' });
  });
  afterAll(() => gateway?.close());

  it('decides the host by X-Forwarded-Host', async () => {
    const fastify: FastifyInstance = gateway.app.getHttpAdapter().getInstance();
    const pro = await creator(gateway, 'pro');
    const page = await createPage(pro);
    const viaProxy = await fastify.inject({ method: 'GET', url: `/${page.slug}`, headers: { host: '10.0.0.5:3000', 'x-forwarded-host': 'pages.plink.test' } });
    expect(viaProxy.statusCode).toBe(200);
    const appViaProxy = await fastify.inject({ method: 'GET', url: `/${page.slug}`, headers: { host: '10.0.0.5:3000', 'x-forwarded-host': 'app.plink.test' } });
    expect({ status: appViaProxy.statusCode, location: appViaProxy.headers.location }).toEqual({
      status: 301,
      location: `https://pages.plink.test/${page.slug}`,
    });
  });
});
