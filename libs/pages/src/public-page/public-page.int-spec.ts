import { PageMessages, type PublicPageDto } from '@plink/contracts';
import { FormTokens } from '@plink/crypto';
import { TEST_SESSION_SECRET, decodedBody, rawRequest, type RawAnswer } from '@plink/testing';
import { PagesTestApp, SPA_SHELL_HTML, type Creator } from '../testing/pages-test-app';
import { PagesDirectory } from '../directory/pages-directory';
import { CachedPageAnswer } from './cached-page-answer';
import { FORM_TOKEN_INTERVAL_MS } from './rendered-pages';

const BROWSER = 'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36';

/** The visitor's side: public JSON, the server-rendered page, and the paths it shares with the SPA. */
describe('public landing pages', () => {
  let t: PagesTestApp;
  let owner: Creator;
  let page: { id: number; slug: string };

  beforeAll(async () => {
    t = await PagesTestApp.start();
    owner = await t.creator({ premium: true });
    page = (
      await owner.client.post('/api/pages', {
        slug: `guide-${Date.now().toString(36)}`,
        title: 'The <Guide> & more',
        subtext: '<p>Learn <strong>everything</strong></p>',
        authorName: 'Ann Author',
        buttonText: 'Send it',
        fileUrl: 'https://files.example.com/guide.pdf',
        webhookUrl: 'https://hooks.example.com/secret',
        metaDescription: 'All about guides',
        thankYouHeadline: 'Thanks a lot!',
        showBranding: false,
        googleAnalyticsId: 'G-ABCDEF12',
      })
    ).body;
  });

  afterAll(async () => {
    await t?.close();
  });

  const visitor = () => t.client({ 'user-agent': BROWSER });

  describe('GET /api/page/{slug}', () => {
    it('answers the public fields only', async () => {
      const res = await visitor().get(`/api/page/${page.slug}`);
      expect(res.status).toBe(200);
      const body: PublicPageDto = res.body;
      expect(body).toMatchObject({
        slug: page.slug,
        title: 'The <Guide> & more',
        subtext: '<p>Learn <strong>everything</strong></p>',
        author: 'Ann Author',
        buttonText: 'Send it',
        showBranding: false,
        googleAnalyticsId: 'G-ABCDEF12',
        thankYouHeadline: 'Thanks a lot!',
      });
      const text = JSON.stringify(body);
      for (const secret of ['userId', 'webhookUrl', 'hooks.example.com', owner.email, 'fileUrl', 'files.example.com', '"id"', 'views']) {
        expect(text).not.toContain(secret);
      }
    });

    it('finds a slug in any case, and answers 404 JSON for unknown or impossible slugs', async () => {
      expect((await visitor().get(`/api/page/${page.slug.toUpperCase()}`)).status).toBe(200);
      for (const slug of ['no-such-page', 'dashboard', 'x'.repeat(61), '%3Cscript%3E', 'a.b']) {
        const res = await visitor().get(`/api/page/${slug}`);
        expect(res.status).toBe(404);
        expect(res.body).toEqual({ message: PageMessages.pageNotFound });
      }
    });

    it('shows the owner’s username as author when the page has no author name, and no author when hidden', async () => {
      const other = await t.creator();
      const created = (await other.client.post('/api/pages', { slug: `anon-${Date.now().toString(36)}` })).body;
      expect((await visitor().get(`/api/page/${created.slug}`)).body.author).toBe(other.username);
      await other.client.put(`/api/pages/${created.id}`, { showUsername: false });
      expect((await visitor().get(`/api/page/${created.slug}`)).body.author).toBeNull();
    });

    it('follows the owner’s plan: no tracking, no custom code and the branding back after a downgrade', async () => {
      const pro = await t.creator({ premium: true });
      const created = (
        await pro.client.post('/api/pages', {
          slug: `plan-${Date.now().toString(36)}`,
          showBranding: false,
          customCodeSnippet: '<script>pro()</script>',
          facebookPixelId: '1234567890',
        })
      ).body;
      expect((await visitor().get(`/api/page/${created.slug}`)).body).toMatchObject({
        showBranding: false,
        customCodeSnippet: '<script>pro()</script>',
        facebookPixelId: '1234567890',
      });
      await t.setPremium(pro.id, false);
      // Cached visitor pages follow an owner's plan change within a minute; any save of the page at once.
      await pro.client.put(`/api/pages/${created.id}`, {});
      expect((await visitor().get(`/api/page/${created.slug}`)).body).toMatchObject({
        showBranding: true,
        customCodeSnippet: null,
        facebookPixelId: null,
      });
    });
  });

  describe('server-rendered page', () => {
    it('answers the page at /{slug}, /p/{slug} and /p/{username}/{slug} as HTML, never cached by browsers', async () => {
      for (const path of [`/${page.slug}`, `/p/${page.slug}`, `/p/${owner.username}/${page.slug}`, `/p/${owner.username.toUpperCase()}/${page.slug}`]) {
        const res = await visitor().get(path);
        expect(res.status).toBe(200);
        expect(res.headers.get('content-type')).toBe('text/html; charset=utf-8');
        expect(res.headers.get('cache-control')).toBe('no-cache');
        expect(res.text).toMatch(/^<!DOCTYPE html>/);
        expect(res.text).toContain('The &lt;Guide&gt; &amp; more');
        expect(res.text).toContain('<strong>everything</strong>');
        expect(res.text).toContain('Send it');
        expect(res.text).toContain(`<link rel="canonical" href="http://plink.test/${page.slug}">`);
        expect(res.text).toContain('All about guides');
        expect(res.text).not.toContain('hooks.example.com');
        expect(res.text).not.toContain(owner.email);
      }
    });

    it('forgives a stray slash in a visitor\'s link: the page it names, or the Page Not Found document', async () => {
      for (const path of [`/${page.slug}/`, `/p/${page.slug}/`, `/p//${page.slug}`, `/p/${owner.username}/${page.slug}/`]) {
        const res = await visitor().get(path);
        expect({ path, status: res.status }).toEqual({ path, status: 200 });
        expect(res.text).toContain('Send it');
      }
      for (const path of [`/p/${owner.username}/`, '/p//no-such-page', '/p/a/b/c']) {
        const res = await visitor().get(path);
        expect({ path, status: res.status, type: res.headers.get('content-type') }).toEqual({ path, status: 404, type: 'text/html; charset=utf-8' });
        expect(res.text).toContain('Page Not Found');
      }
    });

    it('carries every field a creator sets into the HTML visitors and link previews get', async () => {
      const full = (
        await owner.client.post('/api/pages', {
          slug: `full-${Date.now().toString(36)}`,
          title: 'Every Field',
          subtext: '<h2>Why</h2><p>Because <em>all</em> of it shows.</p>',
          authorName: 'Fiona Fields',
          buttonText: 'Count me in',
          buttonColor: '#123abc',
          backgroundColor: '#fafafa',
          backgroundImage: '/uploads/u1/background-abc.jpg',
          imageUrl: 'https://img.example.com/main.jpg',
          redirectUrl: 'https://next.example.com/welcome',
          useSharpCorners: true,
          hideDropShadow: true,
          textAlignment: 'center',
          hidePrivacyPolicyCheckbox: true,
          showBranding: false,
          titleFont: 'Oswald',
          titleBold: false,
          descriptionFont: 'Merriweather',
          descriptionBold: true,
          authorFont: 'Courier New',
          authorBold: true,
          thankYouHeadline: 'Welcome aboard',
          thankYouSubtext: 'See you inside.',
          thankYouButtonText: 'Open the course',
          thankYouButtonUrl: 'https://course.example.com/',
          metaTitle: 'Every Field, shared',
          metaDescription: 'A page that uses every field there is.',
          metaImageUrl: '/uploads/u1/meta-abc.jpg',
          faviconUrl: '/uploads/u1/favicon-abc.png',
          customCodeSnippet: '<meta name="custom-code" content="yes">',
          facebookPixelId: '1234567890',
        })
      ).body;
      const html: string = (await visitor().get(`/${full.slug}`)).text;
      const headHtml = html.slice(0, html.indexOf('</head>'));
      const metaTag = (key: string) => new RegExp(`<meta (?:name|property)="${key}" content="([^"]*)">`).exec(headHtml)?.[1];

      expect(headHtml).toContain('<title>Every Field, shared</title>');
      expect(metaTag('description')).toBe('A page that uses every field there is.');
      expect(metaTag('og:title')).toBe('Every Field, shared');
      expect(metaTag('og:image')).toBe('http://plink.test/uploads/u1/meta-abc.jpg');
      expect(metaTag('twitter:image')).toBe('http://plink.test/uploads/u1/meta-abc.jpg');
      expect(metaTag('twitter:card')).toBe('summary_large_image');
      expect(headHtml).toContain('<link rel="icon" href="/uploads/u1/favicon-abc.png">');
      expect(headHtml).toContain('<meta name="custom-code" content="yes">');
      expect(headHtml).toContain(`fbq('init',"1234567890")`);
      // Only the fonts drawn, in the weights drawn: Oswald 400, Merriweather 700; Courier New is a system font.
      expect([...headHtml.matchAll(/url\(\/fonts\/([a-z0-9-]+)-latin-(\d+)-normal\.woff2\)/g)].map((m) => `${m[1]}:${m[2]}`)).toEqual([
        'oswald:400',
        'merriweather:700',
      ]);

      const body = html.slice(html.indexOf('<body>'));
      expect(body).toMatch(/class="plk-bg"[^>]*style="background-color:#fafafa;background-image:url\(&quot;\/uploads\/u1\/background-abc\.jpg&quot;\)/);
      expect(body).toContain('src="https://img.example.com/main.jpg"');
      expect(body).toMatch(/class="plk-card plk-sharp plk-center" style="max-width:420px;border-radius:0;box-shadow:none;text-align:center"/);
      expect(body).toMatch(/<h1 class="plk-title" style="font-family:Oswald,[^"]*;font-weight:400">Every Field<\/h1>/);
      expect(body).toMatch(/<p class="plk-author" style="font-family:Courier New,[^"]*;font-weight:700">Fiona Fields<\/p>/);
      expect(body).toMatch(/class="plk-subtext" style="font-family:Merriweather,[^"]*;font-weight:700"><h2>Why<\/h2><p>Because <em>all<\/em> of it shows\.<\/p>/);
      expect(body).toMatch(/<button class="plk-btn" type="submit" style="background-color:#123abc;color:#ffffff">Count me in<\/button>/);
      expect(body).not.toContain('name="consent"');
      expect(body).not.toContain('Made with Plink');
      const thankYou = body.slice(body.indexOf('<template'), body.indexOf('</template>'));
      expect(thankYou).toContain('Welcome aboard');
      expect(thankYou).toContain('See you inside.');
      expect(thankYou).toContain('href="https://course.example.com/"');
      expect(thankYou).toContain('Open the course');
      expect(thankYou).toContain('Redirecting you shortly...');
    });

    it('answers the thank-you state for ?submitted=1', async () => {
      const res = await visitor().get(`/${page.slug}?submitted=1`);
      expect(res.status).toBe(200);
      expect(res.text).toContain('Thanks a lot!');
      expect(res.text).toContain('Check your email for your download link.');
    });

    it('answers the thank-you that asks to confirm by e-mail for ?submitted=confirm (a sign-up kept pending under attack)', async () => {
      const res = await visitor().get(`/${page.slug}?submitted=confirm`);
      expect(res.status).toBe(200);
      expect(res.text).toContain('Thanks a lot!');
      expect(res.text).toContain('Check your inbox to confirm your e-mail.');
      expect(res.text).not.toContain('Check your email for your download link.');
      // Any other value is the form.
      expect((await visitor().get(`/${page.slug}?submitted=other`)).text).toContain('name="email"');
    });

    it('answers 404 with the Page Not Found document for unknown slugs and for another user’s path', async () => {
      const stranger = await t.creator();
      for (const path of ['/no-such-page', '/p/no-such-page', `/p/${stranger.username}/${page.slug}`, `/p/${owner.username}/no-such-page`, '/p/dashboard', '/p/bad.slug']) {
        const res = await visitor().get(path);
        expect(res.status).toBe(404);
        expect(res.headers.get('content-type')).toBe('text/html; charset=utf-8');
        expect(res.text).toContain('Page Not Found');
        expect(res.text).toContain("This Plink page doesn't exist or may have been removed.");
      }
    });

    it('answers the SPA for the app’s own routes, and JSON 404s for /api and files', async () => {
      for (const path of [
        '/',
        '/?emailVerified=true',
        '/dashboard',
        '/auth',
        '/auth?tab=register',
        '/settings',
        '/verify-email?token=abc',
        '/forgot-password',
        '/terms',
        '/privacy',
        '/checkout',
        '/Dashboard',
        // Deeper SPA routes reach the gateway's SPA fallback.
        '/editor/new',
        '/stats/3',
        '/checkout/success',
      ]) {
        const res = await visitor().get(path);
        expect({ path, status: res.status }).toEqual({ path, status: 200 });
        expect(res.headers.get('content-type')).toBe('text/html; charset=utf-8');
        expect(res.headers.get('cache-control')).toBe('no-cache');
        expect(res.text).toContain(SPA_SHELL_HTML);
      }
      // No page can have these addresses and the app has no screen there: its document, as a 404.
      for (const path of ['/%E2%9C%93', '/under_score', '/admin']) {
        const res = await visitor().get(path);
        expect({ path, status: res.status }).toEqual({ path, status: 404 });
        expect(res.text).toContain(SPA_SHELL_HTML);
      }
      for (const path of ['/api', '/robots.txt', '/favicon.ico', '/missing.js']) {
        const res = await visitor().get(path);
        expect({ path, status: res.status }).toEqual({ path, status: 404 });
        expect(res.body).toEqual({ message: 'Not found' });
      }
    });

    it('shows an edit at once (the cached HTML is dropped on update), and 404 after a delete', async () => {
      const mine = await t.creator();
      const created = (await mine.client.post('/api/pages', { slug: `edit-${Date.now().toString(36)}`, title: 'First title' })).body;
      expect((await visitor().get(`/${created.slug}`)).text).toContain('First title');
      expect((await visitor().get(`/${created.slug}`)).text).toContain('First title');
      await mine.client.put(`/api/pages/${created.id}`, { title: 'Second title' });
      const after = await visitor().get(`/${created.slug}`);
      expect(after.text).toContain('Second title');
      expect(after.text).not.toContain('First title');
      expect((await visitor().get(`/api/page/${created.slug}`)).body.title).toBe('Second title');

      const renamed = `renamed-${Date.now().toString(36)}`;
      await mine.client.put(`/api/pages/${created.id}`, { slug: renamed });
      expect((await visitor().get(`/${created.slug}`)).status).toBe(404);
      expect((await visitor().get(`/${renamed}`)).status).toBe(200);

      await mine.client.delete(`/api/pages/${created.id}`);
      expect((await visitor().get(`/${renamed}`)).status).toBe(404);
      expect((await visitor().get(`/api/page/${renamed}`)).status).toBe(404);
    });

    it('finds a page created after its slug was asked for (no stale "not found")', async () => {
      const slug = `later-${Date.now().toString(36)}`;
      expect((await visitor().get(`/${slug}`)).status).toBe(404);
      const mine = await t.creator();
      expect((await mine.client.post('/api/pages', { slug })).status).toBe(201);
      expect((await visitor().get(`/${slug}`)).status).toBe(200);
    });

    it('drops a change from the caches of every replica (Redis pub/sub)', async () => {
      const other = await t.replica();
      const mine = await t.creator();
      const created = (await mine.client.post('/api/pages', { slug: `multi-${Date.now().toString(36)}`, title: 'Old words' })).body;
      const unknown = `unknown-${Date.now().toString(36)}`;
      // The other replica caches the page (and a slug without a page)…
      const seenThere = async (path: string) => (await other.client({ 'user-agent': BROWSER }).get(path)).text;
      expect(await seenThere(`/${created.slug}`)).toContain('Old words');
      expect(await seenThere(`/${created.slug}`)).toContain('Old words');
      expect((await other.client().get(`/api/page/${created.slug}`)).body.title).toBe('Old words');
      expect((await other.client().get(`/${unknown}`)).status).toBe(404);
      expect((await other.client().get(`/${unknown}`)).status).toBe(404);
      // (cached indeed: served without the table)
      await t.db.query('alter table pages.pages rename to pages_away');
      try {
        expect(await seenThere(`/${created.slug}`)).toContain('Old words');
        expect((await other.client().get(`/${unknown}`)).status).toBe(404);
      } finally {
        await t.db.query('alter table pages.pages_away rename to pages');
      }
      // …this replica changes it…
      await mine.client.put(`/api/pages/${created.id}`, { title: 'New words' });
      const another = await t.creator();
      await another.client.post('/api/pages', { slug: unknown, title: 'Now here' });
      // …and the other replica shows the change within moments.
      const deadline = Date.now() + 2_000;
      while (!(await seenThere(`/${created.slug}`)).includes('New words') && Date.now() < deadline) await new Promise((r) => setTimeout(r, 20));
      expect(await seenThere(`/${created.slug}`)).toContain('New words');
      expect((await other.client().get(`/api/page/${created.slug}`)).body.title).toBe('New words');
      expect(await seenThere(`/${unknown}`)).toContain('Now here');
      await mine.client.delete(`/api/pages/${created.id}`);
      const gone = Date.now() + 2_000;
      while ((await other.client().get(`/${created.slug}`)).status !== 404 && Date.now() < gone) await new Promise((r) => setTimeout(r, 20));
      expect((await other.client().get(`/${created.slug}`)).status).toBe(404);
    });

    it('answers a page from memory exactly as it answered when rendering it: bytes, headers, compression and state', async () => {
      const mine = await t.creator({ premium: true });
      const early = jest.spyOn(t.app.get(CachedPageAnswer), 'answer');
      const BR = 'gzip, deflate, br, zstd';
      const visits: Array<{ path: (slug: string) => string; headers: Record<string, string>; encoding?: string; state: string }> = [
        { path: (slug: string) => `/${slug}`, headers: {}, encoding: undefined, state: 'Remembered page' },
        { path: (slug: string) => `/${slug}`, headers: { 'accept-encoding': BR }, encoding: 'br', state: 'Remembered page' },
        { path: (slug: string) => `/${slug}`, headers: { 'accept-encoding': 'gzip' }, encoding: 'gzip', state: 'Remembered page' },
        { path: (slug: string) => `/p/${slug}?utm_source=newsletter`, headers: { 'accept-encoding': BR }, encoding: 'br', state: 'Remembered page' },
        { path: (slug: string) => `/${slug}?submitted=1`, headers: { 'accept-encoding': BR }, encoding: 'br', state: 'Thanks, it is on its way' },
      ];
      const comparable = (answer: RawAnswer) => {
        const { date: _date, 'x-request-id': requestId, ...headers } = answer.headers;
        expect(requestId).toMatch(/^[0-9a-f-]{36}$/);
        return { status: answer.status, headers, body: answer.raw.toString('base64') };
      };
      for (const [i, visit] of visits.entries()) {
        const slug = `memo-${i}-${Date.now().toString(36)}`;
        await mine.client.post('/api/pages', { slug, title: 'Remembered page', thankYouHeadline: 'Thanks, it is on its way' });
        early.mockClear();
        const rendered = await rawRequest(t.origin, visit.path(slug), { headers: { 'user-agent': BROWSER, ...visit.headers } });
        const remembered = await rawRequest(t.origin, visit.path(slug), { headers: { 'user-agent': BROWSER, ...visit.headers } });
        // The first visit was rendered by the controller, the second answered from memory before the router.
        expect(early.mock.results.map((r) => r.value)).toEqual([false, true]);
        expect(comparable(remembered)).toEqual(comparable(rendered));
        expect(remembered.status).toBe(200);
        expect(remembered.headers['content-encoding']).toBe(visit.encoding);
        expect(remembered.headers.vary).toBe('Accept-Encoding');
        expect(remembered.headers['content-security-policy']).toBeDefined();
        expect(decodedBody(remembered)).toContain(visit.state);
      }
      early.mockRestore();
    });

    it('serves the form with a signed token of the page, the same for every visitor within a second, then a new one', async () => {
      const slug = `token-${Date.now().toString(36)}`;
      const created = (await owner.client.post('/api/pages', { slug, title: 'Tokens' })).body as { id: number };
      const tokenOf = async (path: string) => /<input type="hidden" name="formToken" value="([^"]+)"\/>/.exec(decodedBody(await rawRequest(t.origin, path, { headers: { 'user-agent': BROWSER } })))?.[1];
      const tokens = new FormTokens(TEST_SESSION_SECRET);
      const first = await tokenOf(`/${slug}`);
      const again = await tokenOf(`/${slug}`);
      expect(first).toMatch(/^v1\./);
      expect(again).toBe(first);
      // Signed with the server secret for this page, issued as it was served (good 2 s later, not before).
      expect(tokens.check(first, created.id, Date.now())).toBe('early');
      expect(tokens.check(first, created.id, Date.now() + 2_500)).toBe('ok');
      expect(tokens.check(first, created.id + 1, Date.now() + 2_500)).toBe('forged');
      await new Promise((r) => setTimeout(r, FORM_TOKEN_INTERVAL_MS + 50));
      const later = await tokenOf(`/${slug}`);
      expect(later).not.toBe(first);
      expect(tokens.check(later, created.id, Date.now() + 2_500)).toBe('ok');
      // The thank-you state has no form, and no token.
      expect(decodedBody(await rawRequest(t.origin, `/${slug}?submitted=1`, { headers: { 'user-agent': BROWSER } }))).not.toContain('formToken');
    });

    it('leaves to the router what it must decide: HEAD, the user path, another user, addresses to decode', async () => {
      const mine = await t.creator({ premium: true });
      const slug = `router-${Date.now().toString(36)}`;
      await mine.client.post('/api/pages', { slug, title: 'Routed page' });
      expect((await visitor().get(`/${slug}`)).status).toBe(200); // now in memory
      const early = jest.spyOn(t.app.get(CachedPageAnswer), 'answer');
      const head = await rawRequest(t.origin, `/${slug}`, { method: 'HEAD' });
      expect(head.status).toBe(200);
      expect(head.raw.length).toBe(0);
      expect((await visitor().get(`/p/${mine.username}/${slug}`)).text).toContain('Routed page');
      expect((await visitor().get(`/p/someone-else/${slug}`)).status).toBe(404);
      expect((await rawRequest(t.origin, `/${slug.toUpperCase().replace('R', '%52')}`)).status).toBe(200);
      expect(early.mock.results.map((r) => r.value)).toEqual([false, false, false, false]);
      early.mockRestore();
    });

    it('renders a page once for visits that arrive together before it is in memory', async () => {
      const mine = await t.creator();
      const slug = `together-${Date.now().toString(36)}`;
      await mine.client.post('/api/pages', { slug, title: 'Busy page' });
      const lookups = jest.spyOn(t.app.get(PagesDirectory), 'findForVisitor');
      const answers = await Promise.all(Array.from({ length: 20 }, () => visitor().get(`/${slug}`)));
      expect(answers.map((a) => a.status)).toEqual(Array(20).fill(200));
      expect(new Set(answers.map((a) => a.text)).size).toBe(1);
      expect(answers[0].text).toContain('Busy page');
      expect(lookups).toHaveBeenCalledTimes(1);
      // An edit is shown at once all the same.
      await mine.client.put(`/api/pages/${(await mine.client.get('/api/pages')).body.find((p: { slug: string }) => p.slug === slug).id}`, { title: 'Edited page' });
      expect((await visitor().get(`/${slug}`)).text).toContain('Edited page');
      lookups.mockRestore();
    });

    it('serves a cached page without touching the database', async () => {
      expect((await visitor().get(`/${page.slug}`)).status).toBe(200);
      await t.db.query('alter table pages.pages rename to pages_away');
      try {
        for (let i = 0; i < 5; i += 1) expect((await visitor().get(`/${page.slug}`)).status).toBe(200);
        expect((await visitor().get(`/api/page/${page.slug}`)).status).toBe(200);
      } finally {
        await t.db.query('alter table pages.pages_away rename to pages');
      }
    });
  });
});

/**
 * With a host of their own (PUBLIC_ORIGIN), landing pages are answered only there. The gateway's host split
 * sends them there before routing; the page's handler checks again, so that an address the split misjudges
 * can still never put a creator's code on the app's origin. This app has no host split (no gateway headers):
 * what it answers on the app host is the handler's own doing.
 */
describe('public landing pages with a host of their own', () => {
  const APP = 'https://app.plink.test';
  const PUBLIC = 'https://pages.plink.test';
  const CODE = '<script>document.title = "owner code ran"</script>';
  let t: PagesTestApp;
  let slug: string;
  let username: string;

  beforeAll(async () => {
    t = await PagesTestApp.start({ APP_ORIGIN: APP, PUBLIC_ORIGIN: PUBLIC });
    const owner = await t.creator({ premium: true });
    username = owner.username;
    slug = `own-host-${Date.now().toString(36)}`;
    const created = await owner.client.post('/api/pages', { slug, title: 'On its own host', customCodeSnippet: CODE });
    expect(created.status).toBe(201);
  });
  afterAll(() => t?.close());

  const get = (host: string, path: string) => rawRequest(t.origin, path, { headers: { host: new URL(host).host, 'accept-encoding': 'identity' } });

  it('never renders a page, its thank-you state or its owner’s code on the app host: it sends the visitor to the public one', async () => {
    for (const path of [`/${slug}`, `/p/${slug}`, `/p/${username}/${slug}`, `/${slug}?submitted=1`, `/%6fwn-${slug.slice(4)}`, `/p/${slug.toUpperCase()}`]) {
      const answer = await get(APP, path);
      expect({ path, status: answer.status, location: answer.headers.location }).toEqual({ path, status: 301, location: `${PUBLIC}${path}` });
      expect(decodedBody(answer)).not.toContain(CODE);
    }
    const onPublic = await get(PUBLIC, `/${slug}`);
    expect(onPublic.status).toBe(200);
    expect(decodedBody(onPublic)).toContain(CODE);
  });
});
