import { Queue } from 'bullmq';
import { CommonMessages, IdentityMessages, PageMessages, QueueName, TrashTexts, type PageDto } from '@plink/contracts';
import { newPageFields } from '@plink/contracts/testing';
import { PagesTestApp, type Creator } from '../testing/pages-test-app';

/** The page calls against a real PostgreSQL and Redis. */
describe('pages API', () => {
  let t: PagesTestApp;

  beforeAll(async () => {
    t = await PagesTestApp.start();
  });

  afterAll(async () => {
    await t?.close();
  });

  let n = 0;
  const slug = (base = 'page') => `${base}-${Date.now().toString(36)}-${(n += 1)}`;
  const pageRows = async (userId: number) => Number((await t.db.query('select count(*) from pages.pages where user_id = $1', [userId])).rows[0].count);

  describe('create, read, list, update, delete', () => {
    let owner: Creator;
    beforeAll(async () => {
      owner = await t.creator({ premium: true });
    });

    it('creates a page with every field it leaves out at its default and answers 201 with it', async () => {
      const s = slug();
      const created = await owner.client.post('/api/pages', { slug: s });
      expect(created.status).toBe(201);
      const page: PageDto = created.body;
      // The schema's defaults (their values are pinned in the contracts' own tests), null for the rest.
      expect(page).toEqual({
        id: expect.any(Number),
        userId: owner.id,
        ...newPageFields(s),
        views: 0,
        conversions: 0,
        pending: 0,
        conversionsWithoutVisit: 0,
        paused: false,
        createdAt: expect.any(String),
        updatedAt: expect.any(String),
      });
      expect((await owner.client.get(`/api/pages/${page.id}`)).body).toEqual(page);
    });

    it('stores every field it is given, sanitising the rich text, and ignores unknown fields', async () => {
      const s = slug();
      const fields = {
        slug: s,
        title: 'My guide',
        subtext: '<h1>Hi</h1><p onclick="x()">Read <a href="javascript:alert(1)">this</a></p><script>alert(1)</script>',
        authorName: 'Ann',
        buttonText: 'Get it',
        buttonColor: '#FF0000',
        backgroundColor: '#00ff00',
        backgroundImage: 'https://img.example.com/bg.png',
        imageUrl: '/uploads/main.png',
        fileUrl: 'https://files.example.com/guide.pdf',
        redirectUrl: 'https://example.com/next',
        showUsername: false,
        useSharpCorners: true,
        hideDropShadow: true,
        webhookUrl: 'https://hooks.example.com/in',
        customCodeSnippet: '<script>console.log(1)</script>',
        thankYouHeadline: 'Thanks!',
        thankYouSubtext: 'Look in your inbox.',
        thankYouButtonText: 'Back',
        thankYouButtonUrl: 'https://example.com',
        textAlignment: 'center',
        showBranding: false,
        hidePrivacyPolicyCheckbox: true,
        titleFont: 'Poppins',
        descriptionFont: 'Georgia',
        authorFont: 'Impact',
        titleBold: false,
        descriptionBold: true,
        authorBold: true,
        metaTitle: 'Meta',
        metaDescription: 'Described',
        metaImageUrl: 'https://img.example.com/og.png',
        faviconUrl: 'https://img.example.com/fav.ico',
        facebookPixelId: '1234567890',
        googleAnalyticsId: 'G-ABCDEF12',
        id: 999_999,
        userId: 1,
        views: 1_000,
        isAdmin: true,
      };
      const created = await owner.client.post('/api/pages', fields);
      expect(created.status).toBe(201);
      const { id: _id, userId: _userId, views: _views, isAdmin: _isAdmin, subtext: _subtext, ...stored } = fields;
      expect(created.body).toMatchObject({ ...stored, userId: owner.id, views: 0 });
      expect(created.body.id).not.toBe(999_999);
      expect(created.body.subtext).toBe('<h1>Hi</h1><p>Read <a>this</a></p>');
    });

    it('updates only the fields a request sends, and keeps the rest', async () => {
      const created = (await owner.client.post('/api/pages', { slug: slug(), title: 'Before', buttonText: 'Go', textAlignment: 'center' })).body;
      const updated = await owner.client.put(`/api/pages/${created.id}`, { title: 'After', subtext: 'Line one\nline two' });
      expect(updated.status).toBe(200);
      expect(updated.body).toMatchObject({ id: created.id, title: 'After', buttonText: 'Go', textAlignment: 'center', subtext: '<p>Line one<br />line two</p>' });
      expect(new Date(updated.body.updatedAt).getTime()).toBeGreaterThanOrEqual(new Date(created.updatedAt).getTime());
      expect((await owner.client.get(`/api/pages/${created.id}`)).body).toMatchObject({ title: 'After', buttonText: 'Go' });
      // Clearing an optional field.
      expect((await owner.client.put(`/api/pages/${created.id}`, { subtext: '' })).body.subtext).toBeNull();
    });

    it('can change a page slug, and keeps its own slug in another case', async () => {
      const created = (await owner.client.post('/api/pages', { slug: slug() })).body;
      const renamed = slug('renamed');
      expect((await owner.client.put(`/api/pages/${created.id}`, { slug: renamed })).body.slug).toBe(renamed);
      expect((await owner.client.put(`/api/pages/${created.id}`, { slug: renamed, title: 'same slug' })).status).toBe(200);
    });

    it('lists only the user’s own pages, newest first, with conversions', async () => {
      const me = await t.creator({ premium: true });
      const other = await t.creator({ premium: true });
      const first = (await me.client.post('/api/pages', { slug: slug('first') })).body;
      const second = (await me.client.post('/api/pages', { slug: slug('second') })).body;
      await other.client.post('/api/pages', { slug: slug('other') });
      t.conversions.counts.set(first.id, 7);
      const list = await me.client.get('/api/pages');
      expect(list.status).toBe(200);
      expect(list.body.map((p: PageDto) => p.id)).toEqual([second.id, first.id]);
      expect(list.body.map((p: PageDto) => p.conversions)).toEqual([0, 7]);
      expect((await me.client.get(`/api/pages/${first.id}`)).body.conversions).toBe(7);
      expect((await (await t.creator()).client.get('/api/pages')).body).toEqual([]);
    });

    it('deletes a page into the Trash: gone from the API, its row and slug kept until the purge (see trash.int-spec.ts)', async () => {
      const created = (await owner.client.post('/api/pages', { slug: slug() })).body;
      const deleted = await owner.client.delete(`/api/pages/${created.id}`);
      expect(deleted.status).toBe(200);
      expect(deleted.body).toEqual({ message: TrashTexts.moved });
      expect((await owner.client.get(`/api/pages/${created.id}`)).status).toBe(404);
      expect((await owner.client.delete(`/api/pages/${created.id}`)).status).toBe(404);
      expect((await t.db.query('select count(*) from pages.pages where id = $1 and deleted_at is not null', [created.id])).rows[0].count).toBe('1');
      // Its leads stay until it leaves the Trash: no job removes them yet.
      const outbox = await t.db.query("select 1 from platform.outbox where job_name = 'leads.delete-for-page' and (payload->>'pageId')::int = $1", [created.id]);
      expect(outbox.rowCount).toBe(0);
      const queue = new Queue(QueueName.Leads, { connection: { url: t.config.redisUrl }, prefix: `${t.config.redisPrefix}bull` });
      const queued = await queue.getJobs(['waiting', 'delayed', 'active', 'completed', 'failed']);
      await queue.close();
      expect(queued.filter((j) => j.name === 'leads.delete-for-page' && j.data.payload.pageId === created.id)).toEqual([]);
      // The slug stays held while the page can be restored.
      expect((await owner.client.post('/api/pages', { slug: created.slug })).status).toBe(409);
    });
  });

  describe('who may do what', () => {
    it('needs a session for every call', async () => {
      const anonymous = t.client();
      for (const [method, path] of [
        ['GET', '/api/pages'],
        ['POST', '/api/pages'],
        ['GET', '/api/pages/1'],
        ['PUT', '/api/pages/1'],
        ['DELETE', '/api/pages/1'],
      ]) {
        const res = await anonymous.request(method, path, method === 'POST' || method === 'PUT' ? { slug: slug() } : undefined);
        expect(res.status).toBe(401);
        expect(res.body).toEqual({ message: IdentityMessages.notSignedIn });
      }
    });

    it('answers 404 for another user’s page on every call, and changes nothing', async () => {
      const owner = await t.creator();
      const stranger = await t.creator({ premium: true });
      const page = (await owner.client.post('/api/pages', { slug: slug(), title: 'Mine' })).body;
      for (const res of [
        await stranger.client.get(`/api/pages/${page.id}`),
        await stranger.client.put(`/api/pages/${page.id}`, { title: 'Stolen' }),
        await stranger.client.delete(`/api/pages/${page.id}`),
      ]) {
        expect(res.status).toBe(404);
        expect(res.body).toEqual({ message: PageMessages.pageNotFound });
      }
      expect((await owner.client.get(`/api/pages/${page.id}`)).body.title).toBe('Mine');
    });

    it('answers 404 for ids that are not positive integers', async () => {
      const owner = await t.creator();
      for (const id of ['0', '-1', 'abc', '1.5', '99999999999', '2147483648', '1e3', '%20', '007']) {
        for (const res of [
          await owner.client.get(`/api/pages/${id}`),
          await owner.client.put(`/api/pages/${id}`, { title: 'x' }),
          await owner.client.delete(`/api/pages/${id}`),
        ]) {
          expect(res.status).toBe(404);
          expect(res.body).toEqual({ message: PageMessages.pageNotFound });
        }
      }
    });

    it('lets only verified users create pages', async () => {
      const unverified = await t.creator({ verified: false });
      const res = await unverified.client.post('/api/pages', { slug: slug() });
      expect(res.status).toBe(403);
      expect(res.body).toEqual({ message: PageMessages.verifyFirst });
      expect(await pageRows(unverified.id)).toBe(0);
    });
  });

  describe('validation (the shared messages)', () => {
    let owner: Creator;
    beforeAll(async () => {
      owner = await t.creator({ premium: true });
    });

    it.each([
      [{}, PageMessages.slugRequired],
      [{ slug: '' }, PageMessages.slugRequired],
      [{ slug: '   ' }, PageMessages.slugRequired],
      [{ slug: 'Has Capitals' }, PageMessages.slugCharacters],
      [{ slug: 'under_score' }, PageMessages.slugCharacters],
      [{ slug: 'dots.html' }, PageMessages.slugCharacters],
      [{ slug: 'ünïcode' }, PageMessages.slugCharacters],
      [{ slug: 'dashboard' }, PageMessages.slugReserved],
      [{ slug: 'api' }, PageMessages.slugReserved],
      [{ slug: 'p' }, PageMessages.slugReserved],
      [{ slug: 'uploads' }, PageMessages.slugReserved],
      [{ slug: 'a'.repeat(61) }, PageMessages.slugTooLong],
      [{ slug: 'ok', titleFont: 'Comic Sans MS' }, PageMessages.invalidFont],
      [{ slug: 'ok', buttonColor: 'red' }, PageMessages.invalidColor],
      [{ slug: 'ok', backgroundColor: '#fff' }, PageMessages.invalidColor],
      [{ slug: 'ok', textAlignment: 'right' }, PageMessages.invalidAlignment],
      [{ slug: 'ok', fileUrl: 'javascript:alert(1)' }, PageMessages.invalidUrl],
      [{ slug: 'ok', redirectUrl: 'data:text/html,<script>alert(1)</script>' }, PageMessages.invalidUrl],
      [{ slug: 'ok', imageUrl: 'ftp://example.com/a.png' }, PageMessages.invalidUrl],
      [{ slug: 'ok', webhookUrl: '/uploads/../etc/passwd' }, PageMessages.invalidUrl],
    ])('refuses %j with its message', async (body, message) => {
      const before = await pageRows(owner.id);
      const res = await owner.client.post('/api/pages', body);
      expect(res.status).toBe(400);
      expect(res.body).toEqual({ message });
      expect(await pageRows(owner.id)).toBe(before);
    });

    it.each([
      ['title', 'x'.repeat(201)],
      ['authorName', 'x'.repeat(101)],
      ['buttonText', 'x'.repeat(61)],
      ['thankYouHeadline', 'x'.repeat(201)],
      ['thankYouSubtext', 'x'.repeat(1_001)],
      ['metaDescription', 'x'.repeat(501)],
      ['customCodeSnippet', 'x'.repeat(20_001)],
      ['fileUrl', `https://example.com/${'x'.repeat(2_048)}`],
    ])('refuses a too long %s with a 400', async (field, value) => {
      const res = await owner.client.post('/api/pages', { slug: slug(), [field]: value });
      expect(res.status).toBe(400);
      expect(res.body.message).toEqual(expect.any(String));
    });

    it('validates updates the same way, and a bad update changes nothing', async () => {
      const page = (await owner.client.post('/api/pages', { slug: slug(), title: 'Kept' })).body;
      for (const [body, message] of [
        [{ slug: '' }, PageMessages.slugRequired],
        [{ slug: 'settings' }, PageMessages.slugReserved],
        [{ textAlignment: 'right' }, PageMessages.invalidAlignment],
        [{ title: 'Changed', buttonColor: '#12345' }, PageMessages.invalidColor],
      ] as const) {
        const res = await owner.client.put(`/api/pages/${page.id}`, body);
        expect(res.status).toBe(400);
        expect(res.body).toEqual({ message });
      }
      expect((await owner.client.get(`/api/pages/${page.id}`)).body.title).toBe('Kept');
    });

    it('answers 400 for bodies that are not a JSON object', async () => {
      for (const body of ['[]', '"text"', '{"slug":']) {
        const res = await owner.client.request('POST', '/api/pages', body);
        expect(res.status).toBe(400);
        expect([CommonMessages.invalidRequest, CommonMessages.malformedJson]).toContain(res.body.message);
      }
    });

    it('accepts rich text with inline images of a few MB, and answers 413 JSON above 8 MB', async () => {
      const image = `data:image/png;base64,${'A'.repeat(3 * 1024 * 1024)}`;
      const accepted = await owner.client.post('/api/pages', { slug: slug(), subtext: `<p>Look</p><p><img src="${image}"></p>` });
      expect(accepted.status).toBe(201);
      expect(accepted.body.subtext).toBe(`<p>Look</p><p><img src="${image}" /></p>`);
      const updated = await owner.client.put(`/api/pages/${accepted.body.id}`, { subtext: `<p><img src="${image}"></p>` });
      expect(updated.status).toBe(200);

      const huge = `<p><img src="data:image/png;base64,${'A'.repeat(9 * 1024 * 1024)}"></p>`;
      const refused = await owner.client.post('/api/pages', { slug: slug(), subtext: huge });
      expect(refused.status).toBe(413);
      expect(refused.body).toEqual({ message: CommonMessages.bodyTooLarge });
      expect((await owner.client.put(`/api/pages/${accepted.body.id}`, { subtext: huge })).status).toBe(413);
      // Other calls keep the app-wide 100 KB limit.
      const other = await t.client().post('/api/login', { email: 'x@example.com', password: 'x'.repeat(200 * 1024) });
      expect(other.status).toBe(413);
    }, 60_000);
  });

  describe('slugs are unique across all users', () => {
    it('answers 409 for a slug another user has, in any case', async () => {
      const a = await t.creator();
      const b = await t.creator();
      const s = slug('shared');
      expect((await a.client.post('/api/pages', { slug: s })).status).toBe(201);
      const taken = await b.client.post('/api/pages', { slug: s });
      expect(taken.status).toBe(409);
      expect(taken.body).toEqual({ message: PageMessages.slugTaken });
      expect(await pageRows(b.id)).toBe(0);
      await t.db.query('update pages.pages set slug = upper(slug) where lower(slug) = $1', [s]);
      expect((await b.client.post('/api/pages', { slug: s })).status).toBe(409);
    });

    it('answers 409 when an update takes another page’s slug', async () => {
      const a = await t.creator({ premium: true });
      const first = (await a.client.post('/api/pages', { slug: slug() })).body;
      const second = (await a.client.post('/api/pages', { slug: slug() })).body;
      const res = await a.client.put(`/api/pages/${second.id}`, { slug: first.slug });
      expect(res.status).toBe(409);
      expect(res.body).toEqual({ message: PageMessages.slugTaken });
    });

    it('says while typing whether an address is free, by the rules a save applies, the edited page keeping its own', async () => {
      const a = await t.creator({ premium: true });
      const b = await t.creator();
      const mine = (await a.client.post('/api/pages', { slug: slug('mine') })).body as PageDto;
      const check = (client: typeof a.client, query: string) => client.get(`/api/slug-availability?${query}`);

      const fresh = slug('fresh');
      expect(await check(b.client, `slug=${fresh}`)).toMatchObject({ status: 200, body: { slug: fresh, available: true, message: null } });
      // Another's page, in any case: taken, as a save would answer.
      expect((await check(b.client, `slug=${mine.slug.toUpperCase()}`)).body).toEqual({
        slug: mine.slug.toUpperCase(),
        available: false,
        message: PageMessages.slugCharacters,
      });
      expect((await check(b.client, `slug=${mine.slug}`)).body).toEqual({ slug: mine.slug, available: false, message: PageMessages.slugTaken });
      // The page being edited keeps its own address; another page of the same owner may not take it.
      expect((await check(a.client, `slug=${mine.slug}&pageId=${mine.id}`)).body).toMatchObject({ available: true, message: null });
      expect((await check(a.client, `slug=${mine.slug}`)).body).toMatchObject({ available: false, message: PageMessages.slugTaken });
      // The shape rules, in the save's words.
      for (const [value, message] of [
        ['dashboard', PageMessages.slugReserved],
        ['has space', PageMessages.slugCharacters],
        ['', PageMessages.slugRequired],
        ['x'.repeat(61), PageMessages.slugTooLong],
      ] as const) {
        expect({ value, body: (await check(b.client, `slug=${encodeURIComponent(value)}`)).body }).toEqual({
          value,
          body: { slug: value, available: false, message },
        });
      }
      expect((await t.client().get(`/api/slug-availability?slug=${fresh}`)).status).toBe(401);
      expect((await check(b.client, 'pageId=abc&slug=x')).status).toBe(400);
    });

    it('gives a slug to exactly one of 10 users creating it at once', async () => {
      const creators = await Promise.all(Array.from({ length: 10 }, () => t.creator()));
      const s = slug('race');
      const answers = await Promise.all(creators.map((c) => c.client.post('/api/pages', { slug: s })));
      expect(answers.map((r) => r.status).sort()).toEqual([201, ...Array(9).fill(409)]);
      for (const r of answers.filter((r) => r.status === 409)) expect(r.body).toEqual({ message: PageMessages.slugTaken });
      expect((await t.db.query('select count(*) from pages.pages where lower(slug) = $1', [s])).rows[0].count).toBe('1');
    });
  });

  describe('plans', () => {
    it('gives a Free user one page in total', async () => {
      const free = await t.creator();
      const first = await free.client.post('/api/pages', { slug: slug() });
      expect(first.status).toBe(201);
      const second = await free.client.post('/api/pages', { slug: slug() });
      expect(second.status).toBe(403);
      expect(second.body).toEqual({ message: PageMessages.freePlanLimit });
      expect(await pageRows(free.id)).toBe(1);
      // After deleting it, one page again.
      expect((await free.client.delete(`/api/pages/${first.body.id}`)).status).toBe(200);
      expect((await free.client.post('/api/pages', { slug: slug() })).status).toBe(201);
    });

    it('keeps the one-page limit when a Free user creates pages concurrently', async () => {
      const free = await t.creator();
      const answers = await Promise.all(Array.from({ length: 5 }, () => free.client.post('/api/pages', { slug: slug('burst') })));
      expect(answers.map((r) => r.status).sort()).toEqual([201, 403, 403, 403, 403]);
      expect(await pageRows(free.id)).toBe(1);
    });

    it('saves Free pages with the branding and without webhook or custom code', async () => {
      const free = await t.creator();
      const created = await free.client.post('/api/pages', {
        slug: slug(),
        showBranding: false,
        webhookUrl: 'https://hooks.example.com/x',
        customCodeSnippet: '<script>track()</script>',
      });
      expect(created.status).toBe(201);
      expect(created.body).toMatchObject({ showBranding: true, webhookUrl: null, customCodeSnippet: null });
      const updated = await free.client.put(`/api/pages/${created.body.id}`, {
        showBranding: false,
        webhookUrl: 'https://hooks.example.com/y',
        customCodeSnippet: '<script>x()</script>',
        title: 'Still saved',
      });
      expect(updated.status).toBe(200);
      expect(updated.body).toMatchObject({ title: 'Still saved', showBranding: true, webhookUrl: null, customCodeSnippet: null });
      const row = (await t.db.query('select show_branding, webhook_url, custom_code_snippet from pages.pages where id = $1', [created.body.id])).rows[0];
      expect(row).toEqual({ show_branding: true, webhook_url: null, custom_code_snippet: null });
    });

    it('gives Pro users unlimited pages and keeps their Pro settings; a downgrade drops them on the next save', async () => {
      const pro = await t.creator({ premium: true });
      const pages = [];
      for (let i = 0; i < 3; i += 1) {
        const res = await pro.client.post('/api/pages', {
          slug: slug('pro'),
          showBranding: false,
          webhookUrl: 'https://hooks.example.com/pro',
          customCodeSnippet: '<script>pro()</script>',
        });
        expect(res.status).toBe(201);
        expect(res.body).toMatchObject({ showBranding: false, webhookUrl: 'https://hooks.example.com/pro', customCodeSnippet: '<script>pro()</script>' });
        pages.push(res.body);
      }
      expect((await pro.client.get('/api/pages')).body).toHaveLength(3);

      await t.setPremium(pro.id, false);
      expect((await pro.client.post('/api/pages', { slug: slug() })).status).toBe(403);
      const saved = await pro.client.put(`/api/pages/${pages[0].id}`, { title: 'after downgrade' });
      expect(saved.body).toMatchObject({ showBranding: true, webhookUrl: null, customCodeSnippet: null });
    });
  });
});
