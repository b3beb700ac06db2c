import { PageMessages, TEMPLATE_SLUGS, type PageDto, type PageTemplateEntryDto } from '@plink/contracts';
import { PagesTestApp } from '../testing/pages-test-app';

/** The template gallery's calls against a real PostgreSQL and Redis, the example pages made by the migrations. */
describe('page templates API', () => {
  let t: PagesTestApp;

  beforeAll(async () => {
    t = await PagesTestApp.start();
  });

  afterAll(async () => {
    await t?.close();
  });

  const list = async () => {
    const res = await t.client().get('/api/templates');
    expect(res.status).toBe(200);
    return res.body as PageTemplateEntryDto[];
  };

  it('lists every template to anyone, in the gallery order, with what its card shows', async () => {
    const templates = await list();
    expect(templates.map((entry) => entry.slug)).toEqual(TEMPLATE_SLUGS);
    expect(templates.length).toBeGreaterThanOrEqual(12);
    expect(templates.find((entry) => entry.slug === 'ebook-download')).toMatchObject({
      name: 'Ebook download',
      category: 'downloads',
      description: expect.stringMatching(/ebook/),
      imageUrl: '/uploads/templates/ebook-download.jpg',
      page: { title: 'The No-Spreadsheet Budget', buttonText: 'Download the Free Ebook', titleFont: 'Merriweather', emailSubject: 'Your free ebook: The No-Spreadsheet Budget' },
    });
    for (const entry of templates) {
      expect(entry.page.imageUrl).toBe(entry.imageUrl);
      // Never a page's own address nor a Pro-only setting.
      for (const field of ['slug', 'webhookUrl', 'customCodeSnippet', 'facebookPixelId', 'googleAnalyticsId']) expect(entry.page).not.toHaveProperty(field);
    }
  });

  it("gives the example pages' templates their pages' content as visitors see it", async () => {
    const templates = await list();
    const photo = templates.find((entry) => entry.slug === 'photo-guide')!;
    expect(photo).toMatchObject({ name: 'Cheat sheet', category: 'downloads', imageUrl: '/uploads/examples/photo-guide.jpg' });
    expect(photo.page).toMatchObject({ title: 'Free Photography Cheat Sheet', buttonColor: '#c2410c', emailSubject: 'Your Photography Cheat Sheet' });
    const row = (await t.db.query("select title, subtext, email_subject from pages.pages where slug = 'photo-guide'")).rows[0];
    expect(photo.page.subtext).toBe(row.subtext);
    // The delivery e-mail is the template's addition; the example page itself has none.
    expect(row.email_subject).toBeNull();
    expect((await t.client().get('/api/templates/startupwkly')).body).toEqual(templates.find((entry) => entry.slug === 'startupwkly')!.page);
  });

  it("shows every template's picture from the uploads", async () => {
    for (const entry of await list()) {
      const res = await fetch(`${t.origin}${entry.imageUrl}`);
      expect(res.status).toBe(200);
      expect(res.headers.get('content-type')).toBe('image/jpeg');
      expect((await res.arrayBuffer()).byteLength).toBeLessThanOrEqual(60_000);
    }
  });

  it('answers one template by its slug in any case, and 404 for anything else', async () => {
    const templates = await list();
    const one = await t.client().get('/api/templates/Music-Fan-List');
    expect(one.status).toBe(200);
    expect(one.body).toEqual(templates.find((entry) => entry.slug === 'music-fan-list')!.page);
    for (const slug of ['blank', 'my-page', 'dashboard', 'templates']) {
      const missing = await t.client().get(`/api/templates/${slug}`);
      expect(missing.status).toBe(404);
      expect(missing.body.message).toBe(PageMessages.templateNotFound);
    }
  });

  it('makes a page from every template as it is, with no change on save', async () => {
    const creator = await t.creator({ premium: true });
    for (const entry of await list()) {
      const slug = `from-${entry.slug}-${Date.now().toString(36)}`;
      const created = await creator.client.post('/api/pages', { ...entry.page, slug });
      expect(created.status).toBe(201);
      const { id: _id, userId: _userId, views: _views, conversions: _conversions, pending: _pending, conversionsWithoutVisit: _withoutVisit, paused: _paused, createdAt: _c, updatedAt: _u, ...fields } = created.body as PageDto;
      expect(fields).toEqual({ ...entry.page, slug, webhookUrl: null, customCodeSnippet: null, facebookPixelId: null, googleAnalyticsId: null });
      const html = await (await fetch(`${t.origin}/${slug}`)).text();
      expect(html).toContain(entry.imageUrl);
    }
  });

  it('leaves out an example whose page is not an example (a creator held its slug first)', async () => {
    await t.db.query("update pages.pages set is_example = false where slug = 'saas-waitlist'");
    try {
      expect((await list()).map((entry) => entry.slug)).toEqual(TEMPLATE_SLUGS.filter((slug) => slug !== 'saas-waitlist'));
      expect((await t.client().get('/api/templates/saas-waitlist')).status).toBe(404);
    } finally {
      await t.db.query("update pages.pages set is_example = true where slug = 'saas-waitlist'");
    }
  });
});
