import type { Pool } from 'pg';
import { PageMessages, type PageDto, type PageTemplateDto } from '@plink/contracts';
import { LandingTexts } from '@plink/page-render';
import { SmtpCatcher, pollUntil as eventually } from '@plink/testing';
import { TestBrowser } from './testing/http-client';
import { startTestGateway, type TestGateway } from './testing/test-gateway';

/**
 * Plink's three example pages, as a visitor and a creator meet them: made by migrations on a fresh
 * database, served at their slugs with their images, counting views, storing and sending nothing, their
 * slugs refused to creators, and their content given to the editor as templates.
 */
describe('example pages', () => {
  let gateway: TestGateway;
  let smtp: SmtpCatcher;
  let origin: string;
  let db: Pool;

  beforeAll(async () => {
    smtp = await SmtpCatcher.start();
    gateway = await startTestGateway({ SMTP_URL: smtp.url, PLINK_WORKERS: 'all', LEAD_RATE_LIMIT_PER_MINUTE: '0' });
    ({ origin, db } = gateway);
  });

  afterAll(async () => {
    await gateway?.close();
    await smtp?.stop();
  });

  const browser = () => new TestBrowser(origin);
  let n = 0;
  const tag = () => `${Date.now().toString(36)}${(n += 1)}`;

  async function creator(): Promise<TestBrowser> {
    const b = browser();
    const t = tag();
    const registered = await b.post('/api/register', { username: `maker_${t}`, email: `maker.${t}@example.com`, password: 'maker-secret' });
    expect(registered.status).toBe(201);
    await db.query('update identity.users set is_verified = true, is_premium = true where id = $1', [registered.body.id]);
    return b;
  }

  const pageRow = async (slug: string) =>
    (await db.query('select id, user_id, views, is_example from pages.pages where slug = $1', [slug])).rows[0] as
      | { id: number; user_id: number; views: string; is_example: boolean }
      | undefined;

  it('counts the views of an example page', async () => {
    // First of this file's tests: nobody has opened the page yet.
    const before = Number((await pageRow('startupwkly'))!.views);
    expect(before).toBe(0);
    for (let i = 0; i < 3; i += 1) expect((await fetch(`${origin}/startupwkly`)).status).toBe(200);
    const after = await eventually(() => pageRow('startupwkly'), (row) => Number(row!.views) === before + 3);
    expect(Number(after!.views)).toBe(before + 3);
  });

  it('serves the three examples at their slugs, with their titles and images, owned by the examples account', async () => {
    const examples = [
      ['photo-guide', 'Free Photography Cheat Sheet'],
      ['startupwkly', 'Startup Weekly'],
      ['saas-waitlist', 'Join the Waitlist'],
    ];
    for (const [slug, title] of examples) {
      const res = await fetch(`${origin}/${slug}`);
      expect(res.status).toBe(200);
      expect(res.headers.get('content-type')).toContain('text/html');
      const html = await res.text();
      expect(html).toMatch(new RegExp(`<h1[^>]*>${title}</h1>`));
      expect(html).toContain(`/uploads/examples/${slug}.jpg`);

      const image = await fetch(`${origin}/uploads/examples/${slug}.jpg`);
      expect(image.status).toBe(200);
      expect(image.headers.get('content-type')).toBe('image/jpeg');
      const bytes = Buffer.from(await image.arrayBuffer());
      expect(bytes.subarray(0, 3)).toEqual(Buffer.from([0xff, 0xd8, 0xff]));
      expect(bytes.length).toBeLessThan(60_000);

      expect(await pageRow(slug)).toMatchObject({ user_id: 0, is_example: true });
    }
    const owner = (await db.query("select username, email from identity.users where id = 0")).rows[0];
    expect(owner).toEqual({ username: 'plink.examples', email: 'examples@plink.invalid' });
  });

  it('has an owner nobody can log in as', async () => {
    for (const password of ['!no-login', '', 'password']) {
      const res = await browser().post('/api/login', { email: 'examples@plink.invalid', password: password || 'x'.repeat(6) });
      expect(res.status).toBe(401);
    }
  });

  it('answers a submission with its thank-you state and an example note, and stores and sends nothing', async () => {
    // A file link on the example (set before anything reads it): a real page would e-mail it to the visitor.
    await db.query("update pages.pages set file_url = 'https://example.com/guide.pdf' where slug = 'saas-waitlist'");
    const example = (await pageRow('saas-waitlist'))!;

    const json = await browser().post('/api/page/saas-waitlist/submit', { email: 'visitor@example.com', consent: true });
    expect(json.status).toBe(200);
    expect(json.body).toMatchObject({ success: true, thankYouHeadline: "You're on the list!" });

    const form = await fetch(`${origin}/saas-waitlist`, {
      method: 'POST',
      redirect: 'manual',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ email: 'nojs@example.com', consent: 'on' }).toString(),
    });
    expect(form.status).toBe(303);
    expect(form.headers.get('location')).toBe('/saas-waitlist?submitted=1');
    const thanks = await (await fetch(`${origin}/saas-waitlist?submitted=1`)).text();
    expect(thanks).toContain("You&#x27;re on the list!");
    expect(thanks).toContain(LandingTexts.exampleNote);
    // The form state carries the note too (the page's script swaps in the thank-you template).
    expect(await (await fetch(`${origin}/saas-waitlist`)).text()).toContain(LandingTexts.exampleNote);

    // Consent is still asked for, as on any page.
    const noConsent = await browser().post('/api/page/saas-waitlist/submit', { email: 'visitor@example.com' });
    expect(noConsent.status).toBe(400);

    // A real page with a file link, submitted after: its e-mail arrives; the example's never do.
    const maker = await creator();
    const real = (await maker.post('/api/pages', { slug: `real-${tag()}`, title: 'Real', fileUrl: 'https://example.com/real.pdf' })).body as PageDto;
    expect((await browser().post(`/api/page/${real.slug}/submit`, { email: 'real@example.com', consent: true })).status).toBe(200);
    await smtp.waitFor((m) => m.to.includes('real@example.com'));
    expect(smtp.mailsTo('visitor@example.com')).toEqual([]);
    expect(smtp.mailsTo('nojs@example.com')).toEqual([]);

    expect((await db.query('select count(*)::int as n from leads.leads where page_id = $1', [example.id])).rows[0].n).toBe(0);
    const counters = await db.query('select coalesce(sum(conversions), 0)::int as n from leads.page_counters where page_id = $1', [example.id]);
    expect(counters.rows[0].n).toBe(0);
  });

  it('keeps the example slugs from every creator, in any case, on create and on update', async () => {
    const maker = await creator();
    for (const slug of ['photo-guide', 'startupwkly', 'saas-waitlist']) {
      const created = await maker.post('/api/pages', { slug, title: 'Mine' });
      expect(created.status).toBe(400);
      expect(created.body.message).toBe(PageMessages.slugReserved);
    }
    const own = (await maker.post('/api/pages', { slug: `own-${tag()}`, title: 'Mine' })).body as PageDto;
    const renamed = await maker.request('PUT', `/api/pages/${own.id}`, { slug: 'startupwkly' });
    expect(renamed.status).toBe(400);
    expect(renamed.body.message).toBe(PageMessages.slugReserved);
    expect((await pageRow('startupwkly'))!.user_id).toBe(0);
  });

  it('gives an example as a template (no slug, no Pro settings) that a new page can be saved from, image included', async () => {
    const res = await browser().get('/api/templates/photo-guide');
    expect(res.status).toBe(200);
    const template = res.body as PageTemplateDto & Record<string, unknown>;
    expect(template).toMatchObject({
      title: 'Free Photography Cheat Sheet',
      buttonText: 'Send Me the Guide',
      imageUrl: '/uploads/examples/photo-guide.jpg',
      textAlignment: 'center',
      titleFont: 'Playfair Display',
    });
    expect(template.subtext).toContain('<strong>Exposure triangle</strong>');
    for (const field of ['slug', 'webhookUrl', 'customCodeSnippet', 'facebookPixelId', 'googleAnalyticsId', 'id', 'userId', 'views']) {
      expect(template).not.toHaveProperty(field);
    }

    for (const slug of ['my-page', 'dashboard', 'PHOTO-GUIDE%00']) expect((await browser().get(`/api/templates/${slug}`)).status).toBe(404);

    const maker = await creator();
    const slug = `from-template-${tag()}`;
    const created = await maker.post('/api/pages', { ...template, slug });
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({ slug, title: 'Free Photography Cheat Sheet', imageUrl: '/uploads/examples/photo-guide.jpg' });
    const html = await (await fetch(`${origin}/${slug}`)).text();
    expect(html).toContain('/uploads/examples/photo-guide.jpg');
    expect(html).not.toContain(LandingTexts.exampleNote);
  });
});
