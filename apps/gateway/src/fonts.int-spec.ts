import { startTestGateway, type TestGateway } from './testing/test-gateway';

/**
 * The landing page's web fonts as a visitor's browser meets them: the page names only the fonts it
 * draws (in the weights it draws), preloads the headline's, and the gateway serves those files
 * itself, cacheable for a year; nothing else is reachable under /fonts.
 */
describe('landing page fonts', () => {
  let gateway: TestGateway;

  beforeAll(async () => {
    gateway = await startTestGateway({ AUTH_RATE_LIMIT_PER_MINUTE: '1000' });
  });
  afterAll(async () => {
    await gateway?.close();
  });

  async function pageWith(fields: Record<string, unknown>): Promise<string> {
    const b = gateway.browser();
    const t = `${Date.now().toString(36)}${Math.random().toString(36).slice(2, 6)}`;
    const registered = await b.post('/api/register', { username: `fonts_${t}`, email: `fonts.${t}@example.com`, password: 'fonts-secret' });
    expect(registered.status).toBe(201);
    await gateway.db.query('update identity.users set is_verified = true where id = $1', [registered.body.id]);
    const created = await b.post('/api/pages', { slug: `fonts-${t}`, title: 'Fonts', subtext: '<p>Hello</p>', ...fields });
    expect(created.status).toBe(201);
    const html = await fetch(`${gateway.origin}/${created.body.slug}`).then((r) => r.text());
    return html;
  }

  it('loads only the chosen web fonts, in the weights used, and preloads the headline font', async () => {
    const html = await pageWith({
      titleFont: 'Playfair Display',
      titleBold: true,
      descriptionFont: 'Lato',
      descriptionBold: false,
      authorFont: 'Georgia',
      authorBold: false,
    });
    const faces = [...html.matchAll(/url\(\/fonts\/([a-z0-9-]+\.woff2)\)/g)].map((m) => m[1]).sort();
    expect(faces).toEqual([
      'lato-latin-400-normal.woff2',
      'lato-latin-700-normal.woff2',
      'lato-latin-ext-400-normal.woff2',
      'lato-latin-ext-700-normal.woff2',
      'playfair-display-latin-700-normal.woff2',
      'playfair-display-latin-ext-700-normal.woff2',
    ]);
    expect(html).toContain('<link rel="preload" href="/fonts/playfair-display-latin-700-normal.woff2" as="font" type="font/woff2" crossorigin>');
    expect(html).not.toMatch(/inter-latin/);
  });

  it('loads no font file for a page set in system fonts', async () => {
    const html = await pageWith({ titleFont: 'Georgia', descriptionFont: 'Arial', authorFont: 'Verdana' });
    expect(html).not.toContain('@font-face');
    expect(html).not.toContain('/fonts/');
    expect(html).toContain('font-family:Georgia');
  });

  it('serves a font file as woff2 with a year of caching', async () => {
    const res = await fetch(`${gateway.origin}/fonts/playfair-display-latin-700-normal.woff2`);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('font/woff2');
    expect(res.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
    const bytes = Buffer.from(await res.arrayBuffer());
    expect(bytes.subarray(0, 4).toString('latin1')).toBe('wOF2');
    expect(Number(res.headers.get('content-length'))).toBe(bytes.length);
  });

  it.each([
    '/fonts/unknown-latin-400-normal.woff2',
    '/fonts/inter-latin-400-normal.woff',
    '/fonts/..%2Fpackage.json',
    '/fonts/%2E%2E%2F%2E%2E%2Fpackage.json',
    '/fonts/',
  ])('answers 404 for %s', async (path) => {
    const res = await fetch(gateway.origin + path);
    expect(res.status).toBe(404);
    expect(res.headers.get('content-type')).toContain('application/json');
  });
});
