import { createHash } from 'node:crypto';
import { get } from 'node:http';
import { gunzipSync } from 'node:zlib';
import { EMBED_GZIP_BUDGET_BYTES, LeadMessages, PageMessages, type EmbedPageDto, type PageDto } from '@plink/contracts';
import { eventually } from '@plink/testing';
import { startTestGateway, type TestGateway } from './testing/test-gateway';

/** The bytes of an answer as sent (no decoding of its Content-Encoding). */
function rawBytes(url: string, headers: Record<string, string>): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    get(url, { headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => resolve(Buffer.concat(chunks)));
    }).on('error', reject);
  });
}

/**
 * The form on another site, as the gateway serves it: the script (size budget, caching, loadable from any
 * site), the embed's page data (CORS `*`, no credentials, nothing of the owner's code), a paused page, and the
 * view the script reports when it shows the form. The browser journey (apps/e2e embed.e2e-spec.ts) draws it.
 */
describe('the embed', () => {
  let gateway: TestGateway;
  let n = 0;
  const tag = () => `${Date.now().toString(36)}${(n += 1)}`;

  async function creatorPage(plan: 'free' | 'pro', fields: Record<string, unknown> = {}): Promise<PageDto> {
    const b = gateway.browser();
    const t = tag();
    const registered = await b.post('/api/register', { username: `emb_${t}`, email: `emb.${t}@example.com`, password: 'creator-secret' });
    expect(registered.status).toBe(201);
    await gateway.db.query('update identity.users set is_verified = true, is_premium = $2 where id = $1', [registered.body.id, plan === 'pro']);
    const res = await b.post('/api/pages', { slug: `emb-${t}`, title: 'Blog list', ...fields });
    expect(res.status).toBe(201);
    return res.body as PageDto;
  }

  beforeAll(async () => {
    gateway = await startTestGateway({ PLINK_WORKERS: 'all' });
  });

  afterAll(async () => {
    await gateway?.close();
  });

  it('serves embed.js within 5 KB gzipped, short-cached, with an immutable versioned copy, loadable from any site', async () => {
    const res = await fetch(`${gateway.origin}/embed.js`, { headers: { 'accept-encoding': 'gzip' } });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('text/javascript; charset=utf-8');
    expect(res.headers.get('cache-control')).toBe('public, max-age=600');
    expect(res.headers.get('cross-origin-resource-policy')).toBe('cross-origin');
    expect(res.headers.get('content-security-policy')).toBeNull();
    const raw = await fetch(`${gateway.origin}/embed.js`, { headers: { 'accept-encoding': 'identity' } });
    const text = await raw.text();
    expect(text).toContain('data-plink-embed');
    // The budget, as a browser downloads it.
    const gzipped = await rawBytes(`${gateway.origin}/embed.js`, { 'accept-encoding': 'gzip' });
    expect(gunzipSync(gzipped).toString()).toBe(text);
    expect(gzipped.length).toBeLessThanOrEqual(EMBED_GZIP_BUDGET_BYTES);

    const hash = createHash('sha256').update(text).digest('hex').slice(0, 12);
    const versioned = await fetch(`${gateway.origin}/embed/${hash}.js`);
    expect(versioned.status).toBe(200);
    expect(versioned.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
    expect((await fetch(`${gateway.origin}/embed/000000000000.js`)).status).toBe(404);
  });

  it("answers any site the page's form with a fresh token, as plain text, never the owner's code; Free pages carry the badge", async () => {
    const free = await creatorPage('free', {
      subtext: '<p>Tips <strong>weekly</strong> &amp; more</p><script>alert(1)</script>',
      buttonColor: '#fde047',
      titleFont: 'Merriweather',
      descriptionFont: 'Roboto',
    });
    const res = await fetch(`${gateway.origin}/api/embed/${free.slug}`, { headers: { origin: 'https://blog.example' } });
    expect(res.status).toBe(200);
    expect(res.headers.get('access-control-allow-origin')).toBe('*');
    expect(res.headers.get('access-control-allow-credentials')).toBeNull();
    expect(res.headers.get('cache-control')).toBe('no-store');
    const page = (await res.json()) as EmbedPageDto;
    expect(page).toMatchObject({
      title: 'Blog list',
      subtext: 'Tips weekly & more',
      buttonColor: '#fde047',
      buttonTextColor: '#000000',
      badge: `${gateway.config.appOrigin}/`,
      consent: { before: 'I agree to the ', linkText: 'privacy policy', url: `${gateway.config.publicOrigin}/privacy` },
      submitUrl: `${gateway.config.publicOrigin}/api/page/${free.slug}/submit`,
      texts: { invalidEmail: LeadMessages.invalidEmail },
    });
    expect(page.formToken).toMatch(/^v1\./);
    // Web fonts under the embed's own family names (they restyle nothing of the host), from the public origin.
    expect(page.bodyFont.startsWith("'plk Roboto',Roboto")).toBe(true);
    expect(page.fontCss).toContain(`font-family:'plk Roboto'`);
    expect(page.fontCss).toContain(`${gateway.config.publicOrigin}/fonts/roboto-latin-`);
    expect(JSON.stringify(page)).not.toContain('alert');

    const pro = await creatorPage('pro', { customCodeSnippet: '<script>window.owner = 1</script>', showBranding: false });
    const proPage = (await (await fetch(`${gateway.origin}/api/embed/${pro.slug}`)).json()) as EmbedPageDto;
    expect(proPage.badge).toBeNull();
    expect(JSON.stringify(proPage)).not.toContain('window.owner');
  });

  it('answers a paused page and an unknown one 404 with the reason (the script shows nothing)', async () => {
    const paused = await creatorPage('free');
    await gateway.db.query('update pages.pages set paused_at = now() where id = $1', [paused.id]);
    const res = await fetch(`${gateway.origin}/api/embed/${paused.slug}`, { headers: { origin: 'https://blog.example' } });
    expect(res.status).toBe(404);
    expect(res.headers.get('access-control-allow-origin')).toBe('*');
    expect(await res.json()).toEqual({ message: PageMessages.pagePaused });
    expect((await fetch(`${gateway.origin}/api/embed/no-such-page-${tag()}`)).status).toBe(404);
    expect((await fetch(`${gateway.origin}/api/embed/${paused.slug}/view`, { method: 'POST', headers: { origin: 'https://blog.example' } })).status).toBe(404);
  });

  it('counts a view when the script reports the form shown, from any site, under the source embed', async () => {
    const page = await creatorPage('free');
    const before = await gateway.db.query('select count(*)::int as n from pages.page_sources where page_id = $1', [page.id]);
    expect(before.rows[0].n).toBe(0);
    const res = await fetch(`${gateway.origin}/api/embed/${page.slug}/view?host=www.blog.example`, {
      method: 'POST',
      headers: { origin: 'https://www.blog.example', 'sec-fetch-site': 'cross-site', 'user-agent': 'Mozilla/5.0 (X11; Linux x86_64) Chrome/140' },
    });
    expect(res.status).toBe(204);
    expect(res.headers.get('access-control-allow-origin')).toBe('*');
    // Fetching the page's data counted nothing; the report did (moved to the database by the pages worker).
    const sources = async () => (await gateway.db.query('select kind, value from pages.page_sources where page_id = $1 order by kind', [page.id])).rows;
    await eventually(async () => (await sources()).length === 3, 20_000);
    expect(await sources()).toEqual([
      { kind: 'device', value: 'desktop' },
      { kind: 'referrer', value: 'blog.example' },
      { kind: 'utm_source', value: 'embed' },
    ]);
  });
});
