import type { Pool } from 'pg';
import { CommonMessages, ConfirmTexts, LeadMessages, notAllowedCharactersMessage, type PageDto } from '@plink/contracts';
import { FormTokens } from '@plink/crypto';
import { SESSION_COOKIE } from '@plink/identity';
import { TEST_SESSION_SECRET } from '@plink/testing';
import { TestBrowser } from './testing/http-client';
import { startTestGateway, type TestGateway } from './testing/test-gateway';

const APP_ORIGIN = 'http://app.plink.test';
const PUBLIC_ORIGIN = 'http://pages.plink.test';

/**
 * Cross-site request forgery and bad input, against the whole gateway on a real database: where a
 * state-changing call may come from (Sec-Fetch-Site / Origin against APP_ORIGIN), what bodies it takes
 * (JSON only, except the no-JS lead form and the upload), and that text with control characters is a
 * 400 naming the field, never a 500.
 */
describe('CSRF defence and bad input', () => {
  let gateway: TestGateway;
  let db: Pool;
  let owner: TestBrowser;
  let page: PageDto;
  let n = 0;
  const tag = () => `${Date.now().toString(36)}${(n += 1)}`;
  const raw = (method: string, path: string, init: { headers?: Record<string, string>; body?: string | Uint8Array<ArrayBuffer>; cookie?: string } = {}) =>
    fetch(gateway.origin + path, {
      method,
      redirect: 'manual',
      headers: { ...(init.cookie ? { cookie: init.cookie } : {}), ...init.headers },
      body: init.body,
    });
  /** A visitor's no-JS form post, sent to the landing pages' host (the app host would redirect it there). */
  const publicForm = async (path: string, init: { headers?: Record<string, string>; body?: string } = {}) => {
    const res = await gateway.app
      .getHttpAdapter()
      .getInstance()
      .inject({ method: 'POST', url: path, headers: { host: new URL(PUBLIC_ORIGIN).host, ...init.headers }, payload: init.body });
    return { status: res.statusCode, location: res.headers.location, text: async () => res.body, json: async () => res.json() as unknown };
  };
  const pageCount = async () => Number((await db.query('select count(*) from pages.pages')).rows[0].count);
  const leadCount = async () => Number((await db.query('select count(*) from leads.leads')).rows[0].count);
  const ownerCookie = () => `${SESSION_COOKIE}=${owner.cookie(SESSION_COOKIE)}`;

  beforeAll(async () => {
    gateway = await startTestGateway({
      APP_ORIGIN,
      PUBLIC_ORIGIN,
      AUTH_RATE_LIMIT_PER_MINUTE: '0',
      LEAD_RATE_LIMIT_PER_MINUTE: '0',
    });
    db = gateway.db;
    owner = gateway.browser();
    const t = tag();
    const registered = await owner.post('/api/register', { username: `owner_${t}`, email: `owner.${t}@example.com`, password: 'owner-secret' });
    expect(registered.status).toBe(201);
    await db.query('update identity.users set is_verified = true, is_premium = true where id = $1', [registered.body.id]);
    page = (await owner.post('/api/pages', { slug: `csrf-${t}`, title: 'Target', hidePrivacyPolicyCheckbox: true })).body;
    expect(page.id).toEqual(expect.any(Number));
  });

  afterAll(async () => {
    await gateway?.close();
  });

  it('signs the owner in (the refused calls below carry a valid session)', async () => {
    expect(owner.cookie(SESSION_COOKIE)).toEqual(expect.any(String));
    expect((await raw('GET', '/api/user', { cookie: ownerCookie() })).status).toBe(200);
  });

  describe('where a state-changing call comes from', () => {
    it('refuses a signed-in call from another origin of the same site (form post and JSON), and changes nothing', async () => {
      const before = await pageCount();
      const attempts = [
        { origin: 'http://127.0.0.1:3499', type: 'application/x-www-form-urlencoded', body: `slug=evil-${tag()}` },
        { origin: 'http://evil.example', type: 'application/json', body: JSON.stringify({ slug: `evil-${tag()}` }) },
        { origin: 'null', type: 'application/json', body: JSON.stringify({ slug: `evil-${tag()}` }) },
      ];
      for (const a of attempts) {
        const res = await raw('POST', '/api/pages', { cookie: ownerCookie(), headers: { origin: a.origin, 'content-type': a.type }, body: a.body });
        expect(res.status).toBe(403);
        expect(await res.json()).toEqual({ message: CommonMessages.crossSiteRequest });
      }
      for (const site of ['cross-site', 'same-site']) {
        const res = await raw('POST', '/api/pages', {
          cookie: ownerCookie(),
          headers: { 'sec-fetch-site': site, origin: APP_ORIGIN, 'content-type': 'application/json' },
          body: JSON.stringify({ slug: `evil-${tag()}` }),
        });
        expect(res.status).toBe(403);
      }
      const put = await raw('PUT', `/api/pages/${page.id}`, {
        cookie: ownerCookie(),
        headers: { 'sec-fetch-site': 'cross-site', 'content-type': 'application/json' },
        body: JSON.stringify({ title: 'Hijacked' }),
      });
      expect(put.status).toBe(403);
      const del = await raw('DELETE', `/api/pages/${page.id}`, { cookie: ownerCookie(), headers: { origin: 'http://evil.example' } });
      expect(del.status).toBe(403);
      expect(await pageCount()).toBe(before);
      expect((await owner.get(`/api/pages/${page.id}`)).body.title).toBe('Target');
    });

    it('refuses login and registration from another site (no login CSRF): no session cookie is set', async () => {
      const login = await raw('POST', '/api/login', {
        headers: { origin: 'http://evil.example', 'content-type': 'application/json' },
        body: JSON.stringify({ email: 'someone@example.com', password: 'whatever1' }),
      });
      expect(login.status).toBe(403);
      expect(login.headers.getSetCookie()).toEqual([]);
      const formLogin = await raw('POST', '/api/login', {
        headers: { origin: 'http://evil.example', 'content-type': 'application/x-www-form-urlencoded' },
        body: 'email=someone%40example.com&password=whatever1',
      });
      expect(formLogin.status).toBe(403);
      const register = await raw('POST', '/api/register', {
        headers: { 'sec-fetch-site': 'cross-site', 'content-type': 'application/json' },
        body: JSON.stringify({ username: `x_${tag()}`, email: `x.${tag()}@example.com`, password: 'secret123' }),
      });
      expect(register.status).toBe(403);
      expect(register.headers.getSetCookie()).toEqual([]);
    });

    it('lets the app’s own pages through: same-origin, a typed request, or Origin equal to APP_ORIGIN', async () => {
      const allowed: Record<string, string>[] = [{ 'sec-fetch-site': 'same-origin', origin: APP_ORIGIN }, { 'sec-fetch-site': 'none' }, { origin: APP_ORIGIN }, {}];
      for (const headers of allowed) {
        const res = await raw('PUT', `/api/pages/${page.id}`, {
          cookie: ownerCookie(),
          headers: { ...headers, 'content-type': 'application/json' },
          body: JSON.stringify({ title: 'Target' }),
        });
        expect(res.status).toBe(200);
      }
    });

    it('lets visitors submit from APP_ORIGIN, PUBLIC_ORIGIN or a sandboxed page (Origin: null)', async () => {
      const visitors: Record<string, string>[] = [
        { origin: PUBLIC_ORIGIN, 'sec-fetch-site': 'same-site' },
        { origin: 'null', 'sec-fetch-site': 'cross-site' },
        { origin: APP_ORIGIN, 'sec-fetch-site': 'same-origin' },
        {},
      ];
      // The page's form token, as a visitor who loaded the page a few seconds ago sends it.
      const formToken = new FormTokens(TEST_SESSION_SECRET).issue(page.id, Date.now() - 5_000);
      for (const headers of visitors) {
        const stored = await leadCount();
        const res = await raw('POST', `/api/page/${page.slug}/submit`, {
          headers: { ...headers, 'content-type': 'application/json' },
          body: JSON.stringify({ email: `v.${tag()}@example.com`, formToken }),
        });
        expect(res.status).toBe(200);
        const form = await publicForm(`/${page.slug}`, {
          headers: { ...headers, 'content-type': 'application/x-www-form-urlencoded' },
          body: `email=f.${tag()}%40example.com&formToken=${formToken}`,
        });
        expect(form.status).toBe(303);
        expect(await leadCount()).toBe(stored + 2);
      }
    });

    it('takes a submission from another site as the form embedded there: source embed, the plain form confirmed by e-mail', async () => {
      const formToken = new FormTokens(TEST_SESSION_SECRET).issue(page.id, Date.now() - 5_000);
      const scripted = `s.${tag()}@example.com`;
      const embedded = await raw('POST', `/api/page/${page.slug}/submit`, {
        headers: { origin: 'https://blog.example', 'sec-fetch-site': 'cross-site', 'content-type': 'application/json' },
        body: JSON.stringify({ email: scripted, formToken }),
      });
      expect(embedded.status).toBe(200);
      expect(embedded.headers.get('access-control-allow-origin')).toBe('https://blog.example');
      // Without a token (the plain form cannot carry one), from another site or marked `embed=html`: stored pending.
      const plain = `p.${tag()}@example.com`;
      const marked = `m.${tag()}@example.com`;
      const posted = await publicForm(`/p/${page.slug}`, {
        headers: { origin: 'http://shop.example:8080', 'content-type': 'application/x-www-form-urlencoded' },
        body: `email=${encodeURIComponent(plain)}`,
      });
      expect(posted.status).toBe(303);
      // The visitor is told to confirm by e-mail (the page itself does not ask to).
      expect(posted.location).toBe(`/p/${page.slug}?submitted=confirm`);
      const thanks = await gateway.app
        .getHttpAdapter()
        .getInstance()
        .inject({ method: 'GET', url: `/${page.slug}?submitted=confirm`, headers: { host: new URL(PUBLIC_ORIGIN).host } });
      expect(thanks.statusCode).toBe(200);
      expect(thanks.body).toContain(ConfirmTexts.thankYouSubtext);
      const markedPost = await publicForm(`/${page.slug}`, {
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: `email=${encodeURIComponent(marked)}&embed=html`,
      });
      expect(markedPost.status).toBe(303);
      expect(markedPost.location).toBe(`/${page.slug}?submitted=confirm`);
      const rows = await db.query<{ email: string; status: string; utm_source: string | null; referrer: string | null }>(
        'select email, status, utm_source, referrer from leads.leads where page_id = $1 and email = any($2) order by email',
        [page.id, [scripted, plain, marked]],
      );
      expect(rows.rows).toEqual([
        { email: marked, status: 'pending', utm_source: 'embed', referrer: null },
        { email: plain, status: 'pending', utm_source: 'embed', referrer: 'shop.example' },
        { email: scripted, status: 'confirmed', utm_source: 'embed', referrer: 'blog.example' },
      ]);
      // A JSON submission from another site still needs a genuine token: without one it is a bot's, stored nowhere.
      const before = await leadCount();
      const tokenless = await raw('POST', `/api/page/${page.slug}/submit`, {
        headers: { origin: 'https://blog.example', 'content-type': 'application/json' },
        body: JSON.stringify({ email: `t.${tag()}@example.com` }),
      });
      expect(tokenless.status).toBe(200);
      expect(await leadCount()).toBe(before);
    });
  });

  describe('what a state-changing call carries', () => {
    it('takes only JSON on the API: a form, text or multipart body answers 415 and changes nothing', async () => {
      const before = await pageCount();
      const bodies: [string, string][] = [
        ['application/x-www-form-urlencoded', `slug=form-${tag()}`],
        ['text/plain', JSON.stringify({ slug: `text-${tag()}` })],
        ['multipart/form-data; boundary=x', `--x\r\nContent-Disposition: form-data; name="slug"\r\n\r\nmp-${tag()}\r\n--x--\r\n`],
        ['application/xml', '<slug>x</slug>'],
      ];
      for (const [type, body] of bodies) {
        const res = await raw('POST', '/api/pages', { cookie: ownerCookie(), headers: { 'content-type': type }, body });
        expect(res.status).toBe(415);
        expect(await res.json()).toEqual({ message: CommonMessages.unsupportedMediaType });
      }
      // Bytes without any Content-Type (fetch adds text/plain to a string body, not to bytes).
      const untyped = await raw('POST', '/api/pages', { cookie: ownerCookie(), body: new TextEncoder().encode(JSON.stringify({ slug: `untyped-${tag()}` })) });
      expect(untyped.status).toBe(415);
      const formSubmit = await raw('POST', `/api/page/${page.slug}/submit`, {
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: 'email=a%40example.com',
      });
      expect(formSubmit.status).toBe(415);
      expect(await pageCount()).toBe(before);
    });

    it('accepts JSON with parameters in any case, and a body-less POST without a type (logout)', async () => {
      const res = await raw('PUT', `/api/pages/${page.id}`, {
        cookie: ownerCookie(),
        headers: { 'content-type': 'Application/JSON; charset=UTF-8' },
        body: JSON.stringify({ title: 'Target' }),
      });
      expect(res.status).toBe(200);
      const b = gateway.browser();
      expect((await b.post('/api/logout')).status).toBe(200);
    });

    it('reads an empty body under a JSON type as no body: a call that needs none works, one that needs one says what is missing', async () => {
      const before = await pageCount();
      const logout = await raw('POST', '/api/logout', { headers: { 'content-type': 'application/json' }, body: '' });
      expect(logout.status).toBe(200);
      const create = await raw('POST', '/api/pages', { cookie: ownerCookie(), headers: { 'content-type': 'application/json' }, body: '' });
      expect(create.status).toBe(400);
      const answer = (await create.json()) as { message: string };
      expect(Object.keys(answer)).toEqual(['message']);
      expect(answer.message).not.toMatch(/content-type|Body cannot be empty/i);
      expect(await pageCount()).toBe(before);
    });

    it('refuses prototype-pollution keys in JSON and in forms with a 400', async () => {
      for (const body of ['{"slug":"ok-proto","__proto__":{"isAdmin":true}}', '{"slug":"ok-ctor","constructor":{"prototype":{"x":1}}}']) {
        const res = await raw('POST', '/api/pages', { cookie: ownerCookie(), headers: { 'content-type': 'application/json' }, body });
        expect(res.status).toBe(400);
        expect(await res.json()).toEqual({ message: CommonMessages.forbiddenKey });
      }
      const form = await publicForm(`/${page.slug}`, {
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: 'email=a%40example.com&__proto__=x',
      });
      expect(form.status).toBe(400);
      const malformed = await raw('POST', '/api/pages', { cookie: ownerCookie(), headers: { 'content-type': 'application/json' }, body: '{"slug":' });
      expect(malformed.status).toBe(400);
      expect(await malformed.json()).toEqual({ message: CommonMessages.malformedJson });
    });
  });

  describe('control characters and odd values', () => {
    it.each([
      ['title', 'Title'],
      ['subtext', 'Subtext'],
      ['authorName', 'Author name'],
      ['buttonText', 'Button text'],
      ['thankYouHeadline', 'Thank-you headline'],
      ['thankYouSubtext', 'Thank-you subtext'],
      ['thankYouButtonText', 'Thank-you button text'],
      ['metaTitle', 'Meta title'],
      ['metaDescription', 'Meta description'],
      ['customCodeSnippet', 'Custom code'],
    ])('a NUL in %s answers 400 naming the field, on create and update, and stores nothing', async (field, label) => {
      const before = await pageCount();
      const created = await owner.post('/api/pages', { slug: `nul-${tag()}`, [field]: 'a\u0000b' });
      expect(created.status).toBe(400);
      expect(created.body).toEqual({ message: notAllowedCharactersMessage(label) });
      const updated = await owner.request('PUT', `/api/pages/${page.id}`, { [field]: 'a\u0000b' });
      expect(updated.status).toBe(400);
      expect(updated.body).toEqual({ message: notAllowedCharactersMessage(label) });
      expect(await pageCount()).toBe(before);
    });

    it('refuses control characters in identity fields and a visitor’s address with a 400', async () => {
      const fresh = gateway.browser();
      for (const [path, body, label] of [
        ['/api/register', { username: 'ann\u0000', email: `a.${tag()}@example.com`, password: 'secret123' }, 'Username'],
        ['/api/register', { username: `u_${tag()}`, email: `a\u0000.${tag()}@example.com`, password: 'secret123' }, 'Email'],
        ['/api/login', { email: 'a\u0000@example.com', password: 'secret123' }, 'Email'],
        ['/api/login', { email: 'a@example.com', password: 'secret\u0000123' }, 'Password'],
        ['/api/forgot-password', { email: 'a\u0007@example.com' }, 'Email'],
        ['/api/reset-password', { token: 'abc\u0000', password: 'secret123' }, 'Token'],
        ['/api/verify-email', { token: '\u0000' }, 'Token'],
      ] as const) {
        const res = await fresh.post(path, body);
        expect({ path, status: res.status, body: res.body }).toEqual({ path, status: 400, body: { message: notAllowedCharactersMessage(label) } });
      }
      const update = await owner.post('/api/update-password', { currentPassword: 'owner\u0000secret', newPassword: 'new-secret-1' });
      expect(update.status).toBe(400);
      expect(update.body).toEqual({ message: notAllowedCharactersMessage('Current password') });
      const lead = await gateway.browser().post(`/api/page/${page.slug}/submit`, { email: 'v\u0000@example.com' });
      expect(lead.status).toBe(400);
      expect(lead.body).toEqual({ message: notAllowedCharactersMessage('Email') });
      const form = await publicForm(`/${page.slug}`, { headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: 'email=v%00%40example.com' });
      expect(form.status).toBe(400);
      expect(await form.text()).toContain(notAllowedCharactersMessage('Email'));
    });

    it('answers odd ids, huge numbers, arrays and objects with a 4xx, never a 500', async () => {
      for (const id of ['9999999999999999999', 'abc', '%00', '1%00', '-0', '1e400', '0x10']) {
        for (const method of ['GET', 'PUT', 'DELETE']) {
          const res = await owner.request(method, `/api/pages/${id}`, method === 'PUT' ? { title: 'x' } : undefined);
          expect({ id, method, status: res.status }).toEqual({ id, method, status: 404 });
        }
        expect((await owner.get(`/api/pages/${id}/stats`)).status).toBe(404);
      }
      for (const body of [{ slug: ['a'] }, { slug: { $gt: '' } }, { slug: 1e308 }, { slug: 'ok', title: ['x'] }, { slug: 'ok', showBranding: 'yes' }, [1, 2]]) {
        const res = await owner.post('/api/pages', body);
        expect(res.status).toBe(400);
        expect(res.body.message).toEqual(expect.any(String));
      }
      const lead = await gateway.browser().post(`/api/page/${page.slug}/submit`, { email: ['a@example.com'] });
      expect(lead.status).toBe(400);
      expect(lead.body).toEqual({ message: LeadMessages.invalidEmail });
      const token = await gateway.browser().get('/api/verify-reset-token/%00');
      expect(token.status).toBeLessThan(500);
    });
  });
});
