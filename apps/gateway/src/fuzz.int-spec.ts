import { SESSION_COOKIE } from '@plink/identity';
import { BillingMessages, type PageDto } from '@plink/contracts';
import { startTestGateway, type TestGateway } from './testing/test-gateway';
import { routesOf, type Route } from './testing/route-table';

/**
 * Bad input never answers 5xx. A few thousand malformed, oversized, wrong-typed, control-character,
 * unicode-edge, deeply nested and prototype-polluting requests go to EVERY route of the real gateway
 * (read from Fastify's route table, so a new route is fuzzed without touching this file), signed in as a
 * verified Pro creator with a page and a lead, on a real database. Each answer must be below 500 (but for the
 * 503 'Payments are not configured on this server.' of a server without payments), come
 * within {@link SLOW_MS}, and an error answer must not leak internals (stack traces, SQL, driver words,
 * file paths). Deterministic: FUZZ_SEED (default below) and FUZZ_REQUESTS pick the run; the seed, the
 * number of requests and the status histogram are printed.
 */
const SEED = Number(process.env.FUZZ_SEED ?? 20261123);
const REQUESTS = Number(process.env.FUZZ_REQUESTS ?? 4000);
const CONCURRENCY = 8;
const SLOW_MS = 5_000;

/** Words an error answer must never carry. */
const LEAKS = [
  /\bat [\w.<>]+ \(/, // a stack frame
  /\w+Error\b:/,
  /\bError:/,
  /node_modules|\/work\/|\/usr\/|\/home\/|\.ts:\d+|\.js:\d+/,
  /\b(select|insert into|update \w+ set|delete from)\b/i,
  /invalid byte sequence|violates|relation "|syntax error at|duplicate key|null value in column|out of range for type/i,
  /\bMikroORM\b|\bpg-protocol\b|\bioredis\b|\bECONNREFUSED\b/,
];

/** mulberry32: a small, well-known seeded generator, so a failing run can be repeated. */
function generator(seed: number) {
  let a = seed >>> 0;
  const next = () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  const int = (n: number) => Math.floor(next() * n);
  const pick = <T>(items: readonly T[]): T => items[int(items.length)];
  const chance = (p: number) => next() < p;
  return { next, int, pick, chance };
}
type Rng = ReturnType<typeof generator>;

// --- what the requests are made of --------------------------------------------------------------------
const CONTROL = Array.from({ length: 32 }, (_, i) => String.fromCharCode(i)).concat('\u007f');
const UNICODE_EDGE = [
  '\ud800', '\udfff', '\ud83d', '\ufeff', '\ufffe', '\uffff', '\u202e', '\u200b', '\u0085', '\u2028', '\u2029',
  '😀', '👨‍👩‍👧', 'é', 'é', 'ﬀ', 'İ', 'ß', '𝔘𝔫𝔦', '日本', 'עברית', '\u0301\u0301\u0301',
];
const WORDS = ['a', 'ok', 'test', 'admin', 'null', 'undefined', 'true', '0', '-1', '1e309', 'NaN', '%00', '..', '../../etc/passwd', "' or 1=1 --", '<script>alert(1)</script>', '${7*7}', '{{7*7}}', '\\'];
const FIELDS = [
  'slug', 'title', 'subtext', 'authorName', 'buttonText', 'buttonColor', 'backgroundColor', 'backgroundImage', 'imageUrl', 'fileUrl',
  'redirectUrl', 'webhookUrl', 'customCodeSnippet', 'thankYouHeadline', 'thankYouSubtext', 'thankYouButtonText', 'thankYouButtonUrl',
  'textAlignment', 'showBranding', 'titleFont', 'metaTitle', 'metaDescription', 'metaImageUrl', 'faviconUrl', 'facebookPixelId',
  'googleAnalyticsId', 'email', 'password', 'username', 'token', 'currentPassword', 'newPassword', 'consent', 'website', 'type', 'id',
];

function fuzzString(r: Rng): string {
  switch (r.int(9)) {
    case 0:
      return r.pick(WORDS);
    case 1: {
      let s = '';
      for (let i = r.int(6) + 1; i > 0; i -= 1) s += r.chance(0.5) ? r.pick(CONTROL) : r.pick(WORDS);
      return s;
    }
    case 2: {
      let s = '';
      for (let i = r.int(6) + 1; i > 0; i -= 1) s += r.pick(UNICODE_EDGE) + (r.chance(0.5) ? 'a' : '');
      return s;
    }
    case 3:
      return r.pick(['x', '\u0000', 'é', '😀', '<b>']).repeat(r.pick([255, 1_001, 20_001, 70_000]));
    case 4:
      return `${r.pick(['ann', 'a\u0000b', 'ANN', ' ann '])}@${r.pick(['example.com', 'exa\u0000mple.com', 'localhost', '[::1]', 'ex ample.com'])}`;
    case 5:
      return `${r.pick(['https://', 'http://', 'javascript:', 'data:text/html,', '/uploads/', '//'])}${r.pick(['example.com/a', '\u0000', 'a b', '%00', '../x', 'ex.com/' + 'a'.repeat(3000)])}`;
    case 6:
      return r.pick(['#000000', '#zzzzzz', 'red', '', ' ', 'Inter', 'Comic Sans', 'left', 'right', 'main', 'favicon', 'on', 'G-ABC12345', '123456']);
    case 7:
      return String.fromCharCode(...Array.from({ length: r.int(20) + 1 }, () => r.int(0x10000)));
    default:
      return `fuzz-${r.int(1e9)}`;
  }
}

/** An ordinary text with something odd in it: a control character, a unicode edge case, or a random string. */
function badText(r: Rng, text: string): string {
  const at = r.int(text.length + 1);
  // NUL most often: PostgreSQL refuses it in text, where it takes every other control character.
  const odd = r.chance(0.25) ? '\u0000' : r.chance(0.25) ? r.pick(CONTROL) : r.chance(0.5) ? r.pick(UNICODE_EDGE) : fuzzString(r);
  return text.slice(0, at) + odd + text.slice(at);
}

function fuzzValue(r: Rng, depth = 0): unknown {
  switch (r.int(depth > 2 ? 6 : 9)) {
    case 0:
    case 1:
    case 2:
      return fuzzString(r);
    case 3:
      return r.pick([0, -1, 1, 2 ** 31, 2 ** 53 + 1, -(2 ** 63), 1e308, -0, 0.5, 1e19]);
    case 4:
      return r.pick([true, false, null]);
    case 5:
      return r.chance(0.5) ? [] : {};
    case 6:
      return Array.from({ length: r.int(4) + 1 }, () => fuzzValue(r, depth + 1));
    default:
      return fuzzObject(r, depth + 1);
  }
}

function fuzzObject(r: Rng, depth = 0): Record<string, unknown> {
  const o: Record<string, unknown> = {};
  for (let i = r.int(6) + 1; i > 0; i -= 1) o[r.chance(0.85) ? r.pick(FIELDS) : fuzzString(r).slice(0, 40)] = fuzzValue(r, depth);
  return o;
}

/** A JSON text, sometimes one JSON.stringify cannot make (proto keys, deep nesting, broken syntax). */
function fuzzJson(r: Rng, object: () => Record<string, unknown>): string {
  switch (r.int(14)) {
    case 0:
      return `{"slug":"ok-${r.int(1e6)}","__proto__":{"isAdmin":true},"title":"x"}`;
    case 1:
      return '{"constructor":{"prototype":{"polluted":1}},"email":"a@example.com"}';
    case 2: {
      const depth = r.pick([100, 2_000, 40_000]);
      return r.chance(0.5) ? '['.repeat(depth) + ']'.repeat(depth) : '{"a":'.repeat(depth) + '1' + '}'.repeat(depth);
    }
    case 3:
      return r.pick(['', ' ', '{', '{"a":}', 'null', '[]', '"str"', '123', 'true', '{"a":1}garbage', '\u0000', '{"a":"\\u0000"}', '{"email":"\\ud800@x.com"}', "{'a':1}", 'NaN']);
    case 4:
      return JSON.stringify(fuzzValue(r));
    default:
      return JSON.stringify(object());
  }
}

function multipart(r: Rng): { type: string; body: Uint8Array<ArrayBuffer> } {
  const boundary = `fuzz${r.int(1e9)}`;
  const bytes = new Uint8Array(r.pick([0, 10, 1_000, 100_000]));
  for (let i = 0; i < bytes.length; i += 1) bytes[i] = r.int(256);
  const head = `--${boundary}\r\nContent-Disposition: form-data; name="${r.pick(['image', 'file', 'image"; x="', '\u0000'])}"; filename="${r.pick(['a.png', '../../a', '\u0000.png', ''])}"\r\nContent-Type: ${r.pick(['image/png', 'text/html', 'image/svg+xml'])}\r\n\r\n`;
  const tail = r.chance(0.8) ? `\r\n--${boundary}--\r\n` : '';
  const body = Buffer.concat([Buffer.from(head), bytes, Buffer.from(tail)]);
  return { type: r.pick([`multipart/form-data; boundary=${boundary}`, 'multipart/form-data', `multipart/form-data; boundary=other`]), body: new Uint8Array(body) };
}

const CONTENT_TYPES = [
  'application/json', 'application/json; charset=utf-8', 'APPLICATION/JSON', 'application/json; charset=latin1', 'application/x-www-form-urlencoded',
  'text/plain', 'text/html', 'application/xml', 'application/octet-stream', 'application/vnd.api+json', '', ';', 'multipart/form-data',
];
const SESSION_ENDING = new Set(['/api/login', '/api/register', '/api/logout']);
/** Every text field of a page, valid. */
const PAGE_TEXTS = {
  title: 'Fuzzed',
  subtext: 'Line one\nline two',
  authorName: 'Ann',
  buttonText: 'Get it',
  fileUrl: 'https://example.com/guide.pdf',
  thankYouHeadline: 'Thanks',
  thankYouSubtext: 'See you',
  thankYouButtonText: 'Back',
  thankYouButtonUrl: 'https://example.com/',
  metaTitle: 'Meta',
  metaDescription: 'Described',
  customCodeSnippet: '<script>1</script>',
};
const METHODS = ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS', 'PROPFIND', 'get'];

/** encodeURIComponent, with a lone surrogate sent as the (invalid UTF-8) bytes it would take. */
function uriEncode(text: string): string {
  return text
    .split(/([\ud800-\udfff])/u)
    .map((part, i) => (i % 2 ? `%ED%${(0xa0 + ((part.charCodeAt(0) >> 6) & 0x1f)).toString(16).toUpperCase()}%80` : encodeURIComponent(part)))
    .join('');
}

interface FuzzRequest {
  method: string;
  path: string;
  headers: Record<string, string>;
  body?: string | Uint8Array<ArrayBuffer>;
}

describe('fuzzing every route', () => {
  let gateway: TestGateway;
  let cookie: string;
  let page: PageDto;

  beforeAll(async () => {
    gateway = await startTestGateway({ AUTH_RATE_LIMIT_PER_MINUTE: '0', LEAD_RATE_LIMIT_PER_MINUTE: '0', LEAD_FLOOD_PER_HOUR: '0', LEAD_REFUSED_PER_HOUR: '0' });
    const owner = gateway.browser();
    const registered = await owner.post('/api/register', { username: 'fuzz_owner', email: 'fuzz.owner@example.com', password: 'fuzz-secret' });
    expect(registered.status).toBe(201);
    await gateway.db.query('update identity.users set is_verified = true, is_premium = true where id = $1', [registered.body.id]);
    page = (await owner.post('/api/pages', { slug: 'fuzz-page', title: 'Fuzz', fileUrl: 'https://example.com/f.pdf' })).body;
    expect(page.id).toEqual(expect.any(Number));
    expect((await gateway.browser().post('/api/page/fuzz-page/submit', { email: 'lead@example.com', consent: true })).status).toBe(200);
    cookie = `${SESSION_COOKIE}=${owner.cookie(SESSION_COOKIE)}`;
  });

  afterAll(async () => {
    await gateway?.close();
  });

  function paramValue(r: Rng, name: string): string {
    const valid: Record<string, string> = { id: String(page.id), slug: page.slug, username: 'fuzz_owner', token: 'a'.repeat(64), file: 'inter-latin-400-normal.woff2' };
    if (r.chance(0.5) && valid[name]) return valid[name];
    const raw = r.pick([
      '9999999999999999999', '-1', '0', '1.5', '1e3', 'abc', '%00', '%ff', '%c0%af', '%2e%2e%2f', '..%2f..%2fetc%2fpasswd', '%E2%80%AE', 'x'.repeat(3_000),
      '__proto__', 'constructor', 'API', 'p', '%20', uriEncode(fuzzString(r).slice(0, 200)),
    ]);
    return raw;
  }

  let unique = 0;
  /** A valid body for the calls that take one, so that one bad field at a time reaches deep checks. */
  function validBody(path: string): Record<string, unknown> | undefined {
    unique += 1;
    const email = `fz${unique}@example.com`;
    switch (path) {
      case '/api/pages':
        return { slug: `fz-${unique}`, ...PAGE_TEXTS };
      case '/api/pages/:id':
        return { ...PAGE_TEXTS };
      case '/api/register':
        return { username: `fz_${unique}`, email, password: 'fuzz-secret' };
      case '/api/login':
        return { email: 'fuzz.owner@example.com', password: 'fuzz-secret' };
      case '/api/forgot-password':
        return { email };
      case '/api/reset-password':
        return { token: 'a'.repeat(64), password: 'fuzz-secret' };
      case '/api/verify-email':
        return { token: 'a'.repeat(64) };
      case '/api/update-password':
        return { currentPassword: 'wrong-secret', newPassword: 'fuzz-secret-2' };
      case '/api/page/:slug/submit':
      case '/:slug':
      case '/p/:slug':
      case '/p/:slug/:slug':
        return { email, consent: true };
      default:
        return undefined;
    }
  }

  /** A body: a valid one with one field made bad (or added), else a random one. */
  function bodyFor(r: Rng, route: Route): Record<string, unknown> {
    const valid = r.chance(0.75) ? validBody(route.path) : undefined;
    if (!valid) return fuzzObject(r);
    const field = r.chance(0.7) ? r.pick(Object.keys(valid)) : r.chance(0.8) ? r.pick(FIELDS) : fuzzString(r).slice(0, 40);
    valid[field] = r.chance(0.7) ? badText(r, r.pick(['Hello', 'ann@example.com', 'https://example.com/a', 'fz-page', 'secret-123'])) : fuzzValue(r);
    return valid;
  }

  function buildRequest(r: Rng, route: Route): FuzzRequest {
    const changing = route.methods.filter((m) => m !== 'GET' && m !== 'HEAD');
    const method = changing.length && r.chance(0.7) ? r.pick(changing) : r.chance(0.8) ? r.pick(route.methods) : r.pick(METHODS);
    let path = route.path.replace(/:(\w+)/g, (_m, name: string) => paramValue(r, name)).replace('*', () => paramValue(r, 'rest'));
    if (r.chance(0.4)) {
      const pairs = Array.from({ length: r.int(4) + 1 }, () =>
        r.pick([`type=${r.pick(['main', 'favicon', 'x', '', '%00'])}`, 'type[]=main', 'type=main&type=meta', '__proto__[x]=1', 'constructor[prototype][x]=1', `q=${uriEncode(fuzzString(r).slice(0, 500))}`, 'submitted=1', '%ff=%ff']),
      );
      path += `?${pairs.join('&')}`;
    }
    const headers: Record<string, string> = {};
    // Mostly the app's own browser; sometimes another site, a sandboxed page, or no browser at all.
    const from = r.int(20);
    if (from < 12) headers['sec-fetch-site'] = 'same-origin';
    else if (from === 12) headers.origin = 'http://evil.example';
    else if (from === 13) Object.assign(headers, { origin: 'null', 'sec-fetch-site': 'cross-site' });
    // Signing in, registering or out ends the session a request carries: those get none of the owner's.
    if (!SESSION_ENDING.has(route.path) && r.chance(0.85)) headers.cookie = cookie;
    else if (r.chance(0.3)) headers.cookie = `${SESSION_COOKIE}=${r.pick(['', 'x', '%00', 'a'.repeat(500), '; ;'])}`;
    if (r.chance(0.1)) headers['x-request-id'] = r.pick(['\u00e9', 'a'.repeat(300), '../x', '']).replace(/[^\x20-\xff]/g, '');
    if (r.chance(0.05)) headers['x-forwarded-for'] = r.pick(['garbage', '1.2.3.4, ::1', '999.999.1.1']);
    if (r.chance(0.05)) headers.accept = r.pick(['text/html', 'application/json', '*/*;q=x', '']);
    let body: string | Uint8Array<ArrayBuffer> | undefined;
    if (method !== 'GET' && method !== 'HEAD' && method !== 'get' && r.chance(0.9)) {
      const kind = r.int(11);
      if (kind < 7) {
        body = fuzzJson(r, () => bodyFor(r, route));
        headers['content-type'] = r.chance(0.85) ? 'application/json' : r.pick(CONTENT_TYPES);
      } else if (kind < 9) {
        body = Object.entries(bodyFor(r, route))
          .map(([k, v]) => `${uriEncode(k)}=${uriEncode(String(v))}`)
          .join('&') + r.pick(['', '&__proto__=x', '&email=a%00b%40x.com', '&email=x&email=y', '&%ff=%fe']);
        headers['content-type'] = r.chance(0.8) ? 'application/x-www-form-urlencoded' : r.pick(CONTENT_TYPES);
      } else if (kind === 9) {
        const m = multipart(r);
        body = m.body;
        headers['content-type'] = m.type;
      } else {
        const bytes = new Uint8Array(r.pick([1, 100, 5_000, 200_000]));
        for (let i = 0; i < bytes.length; i += 1) bytes[i] = r.int(256);
        body = bytes;
        if (r.chance(0.5)) headers['content-type'] = r.pick(CONTENT_TYPES);
      }
    }
    return { method, path, headers, body };
  }

  it(`answers ${REQUESTS} bad requests to every route with no 5xx, no hang and no leaked internals`, async () => {
    const routes = routesOf(gateway.app.getHttpAdapter().getInstance().printRoutes({ commonPrefix: false }));
    // The routes this test knows exist, so a broken route table cannot make the test vacuous.
    for (const path of ['/api/pages/:id', '/api/page/:slug/submit', '/api/upload-image', '/api/login', '/:slug', '/p/:slug/:slug']) {
      expect(routes.map((r) => r.path)).toContain(path);
    }
    const r = generator(SEED);
    const histogram = new Map<number, number>();
    const perRoute = new Map<string, number>();
    const failures: string[] = [];
    let sent = 0;
    let slowest = 0;

    const one = async (route: Route) => {
      const req = buildRequest(r, route);
      const started = performance.now();
      let status: number;
      let text = '';
      let contentType = '';
      try {
        const res = await fetch(gateway.origin + req.path, {
          method: req.method,
          headers: req.headers,
          body: req.body,
          redirect: 'manual',
          signal: AbortSignal.timeout(SLOW_MS * 2),
        });
        status = res.status;
        contentType = res.headers.get('content-type') ?? '';
        text = await res.text();
      } catch (err) {
        // fetch itself refuses some combinations (a header value it will not send): not the server's doing.
        // (Checked by name: the test runs in another realm than fetch's own TypeError.)
        if ((err as Error).name === 'TypeError' && !/fetch failed/.test((err as Error).message)) return;
        status = -1;
        text = String(err);
      }
      const ms = performance.now() - started;
      sent += 1;
      slowest = Math.max(slowest, ms);
      histogram.set(status, (histogram.get(status) ?? 0) + 1);
      perRoute.set(route.path, (perRoute.get(route.path) ?? 0) + 1);
      const what = `${req.method} ${req.path.slice(0, 120)} [${req.headers['content-type'] ?? '-'}] body ${typeof req.body === 'string' ? JSON.stringify(req.body.slice(0, 120)) : (req.body?.length ?? 0) + ' bytes'}`;
      // The one 5xx by design: a server without payments says so (503) to the calls that would take one.
      const paymentsOff = status === 503 && text === JSON.stringify({ message: BillingMessages.notConfigured });
      if (status < 0 || (status >= 500 && !paymentsOff)) failures.push(`${status} ${what}: ${text.slice(0, 200)}`);
      else if (ms > SLOW_MS) failures.push(`slow (${Math.round(ms)} ms) ${what}`);
      else if (status >= 400) {
        const leak = LEAKS.find((re) => re.test(text));
        if (leak) failures.push(`leak ${leak} in ${status} ${what}: ${text.slice(0, 200)}`);
        if (req.path.startsWith('/api/') && req.method !== 'HEAD' && contentType.includes('json')) {
          const body = JSON.parse(text) as { message?: unknown };
          if (typeof body.message !== 'string' || !body.message) failures.push(`no message in ${status} ${what}: ${text.slice(0, 200)}`);
        }
      }
    };

    // Routes that change something take input: they get three turns in each round to the others' one.
    const round = routes.flatMap((route) => (route.methods.some((m) => m !== 'GET' && m !== 'HEAD') ? [route, route, route] : [route]));
    const queue = Array.from({ length: REQUESTS }, (_, i) => round[i % round.length]);
    await Promise.all(
      Array.from({ length: CONCURRENCY }, async () => {
        for (let route = queue.shift(); route; route = queue.shift()) await one(route);
      }),
    );

    const statuses = [...histogram].sort(([a], [b]) => a - b).map(([s, c]) => `${s}: ${c}`).join(', ');
    process.stdout.write(
      `fuzz: seed ${SEED}, ${sent} requests to ${routes.length} routes (${Math.min(...perRoute.values())} to ${Math.max(...perRoute.values())} each), slowest ${Math.round(slowest)} ms\n` +
        `fuzz: statuses ${statuses}\n`,
    );
    expect(failures.slice(0, 20)).toEqual([]);
    expect(sent).toBeGreaterThan(REQUESTS * 0.95);
    // Most requests must have got past the edge to the routes' own checks, or the fuzz proves little.
    expect([...histogram].filter(([s]) => s !== 403 && s !== 415).reduce((n, [, c]) => n + c, 0)).toBeGreaterThan(REQUESTS / 2);
  }, 120_000);
});
