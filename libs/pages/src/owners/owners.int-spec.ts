import { PagesTestApp, waitFor } from '../testing/pages-test-app';

/**
 * The pages service's own copy of its page owners (username and plan, pages.owners): it follows identity's
 * 'pages.owner-plan-changed' jobs through the real outbox, queue and pages worker (newest change wins),
 * is filled for owners identity announces once (those who had pages before the copy existed), and a
 * creator's own save fills in an owner it has not heard of yet. Visitors see what it says.
 */
describe('the pages service’s copy of page owners', () => {
  let t: PagesTestApp;

  beforeAll(async () => {
    t = await PagesTestApp.start();
    await t.startWorker();
  });

  afterAll(async () => {
    await t?.close();
  });

  const visitor = () => t.client();
  const slug = (prefix: string) => `${prefix}-${Date.now().toString(36)}${Math.floor(Math.random() * 1e6)}`;

  /** Records the job as identity does (its plan change, or its one-time announcement): in platform.outbox. */
  async function identitySays(payload: { userId: number; username?: string; isPremium?: boolean; changedAt?: string | null }) {
    await t.db.query(
      "insert into platform.outbox (id, queue, job_name, payload, correlation_id) values (gen_random_uuid(), 'pages', 'pages.owner-plan-changed', $1, 'owners-test')",
      [JSON.stringify({ v: 1, ...payload })],
    );
  }

  const ownerRow = async (userId: number) =>
    (await t.db.query('select username, is_premium, plan_changed_at from pages.owners where user_id = $1', [userId])).rows[0];
  const branding = async (pageSlug: string) => (await visitor().get(`/api/page/${pageSlug}`)).body.showBranding as boolean;

  it('follows identity’s plan changes: the visitor’s page and the pausing follow the newest, a late older one changes nothing', async () => {
    const pro = await t.creator({ premium: true });
    const first = (await pro.client.post('/api/pages', { slug: slug('owner-first'), showBranding: false })).body;
    const second = (await pro.client.post('/api/pages', { slug: slug('owner-second'), showBranding: false })).body;
    // The first save made the owner known, as their request carried them.
    expect(await ownerRow(pro.id)).toEqual({ username: pro.username, is_premium: true, plan_changed_at: null });
    expect(await branding(first.slug)).toBe(false);

    await t.signIns.setPremium(pro.id, false);
    await identitySays({ userId: pro.id, username: pro.username, isPremium: false, changedAt: '2026-11-24T10:00:00.000Z' });
    expect((await waitFor(() => branding(first.slug), true, 10_000)).value).toBe(true);
    expect(await ownerRow(pro.id)).toEqual({ username: pro.username, is_premium: false, plan_changed_at: new Date('2026-11-24T10:00:00.000Z') });
    // A Free owner keeps the oldest page live.
    expect((await visitor().get(`/api/page/${second.slug}`)).status).toBe(404);

    // A copy of an older change (Pro) arriving late: ignored.
    await identitySays({ userId: pro.id, username: pro.username, isPremium: true, changedAt: '2026-11-24T09:00:00.000Z' });
    // A job from before owners were carried (the id only): judged from the copy as it is.
    await identitySays({ userId: pro.id });
    await new Promise((r) => setTimeout(r, 2_500));
    expect(await ownerRow(pro.id)).toMatchObject({ is_premium: false });
    expect(await branding(first.slug)).toBe(true);
    expect((await visitor().get(`/api/page/${second.slug}`)).status).toBe(404);

    // Pro again, later: every page live, the owner's settings back.
    await identitySays({ userId: pro.id, username: pro.username, isPremium: true, changedAt: '2026-11-24T11:00:00.000Z' });
    expect((await waitFor(async () => (await visitor().get(`/api/page/${second.slug}`)).status, 200, 10_000)).value).toBe(200);
    expect(await branding(first.slug)).toBe(false);
  });

  it('is filled from identity’s announcement for an owner whose pages are older than the copy', async () => {
    // A Pro creator's page stored before pages kept owners: no row for its owner.
    const userId = 900_001;
    const legacy = slug('legacy');
    await t.db.query("insert into pages.pages (user_id, slug, title, show_branding, custom_code_snippet) values ($1, $2, 'Legacy page', false, '<script>pro()</script>')", [
      userId,
      legacy,
    ]);
    // Until the announcement comes, the page is served as a Free owner's, without the owner's name.
    expect((await visitor().get(`/api/page/${legacy}`)).body).toMatchObject({ showBranding: true, customCodeSnippet: null, author: null });
    expect((await visitor().get(`/p/legacy_owner/${legacy}`)).status).toBe(404);

    // identity's one-time announcement of an existing user (a plan that never changed: no time).
    await identitySays({ userId, username: 'legacy_owner', isPremium: true, changedAt: null });
    const shown = await waitFor(async () => (await visitor().get(`/p/legacy_owner/${legacy}`)).status, 200, 10_000);
    expect(shown.value).toBe(200);
    expect((await visitor().get(`/api/page/${legacy}`)).body).toMatchObject({ showBranding: false, customCodeSnippet: '<script>pro()</script>', author: 'legacy_owner' });
    expect(await ownerRow(userId)).toEqual({ username: 'legacy_owner', is_premium: true, plan_changed_at: null });
  });

  it('takes the plan a creator’s request carries only until identity has told it one', async () => {
    const creator = await t.creator();
    const page = (await creator.client.post('/api/pages', { slug: slug('told') })).body;
    // Made Pro before any job of identity's came (e.g. a plan copied onto the user by an older version): the next save says so.
    await t.signIns.setPremium(creator.id, true);
    expect((await creator.client.put(`/api/pages/${page.id}`, { showBranding: false })).status).toBe(200);
    expect(await ownerRow(creator.id)).toMatchObject({ is_premium: true, plan_changed_at: null });
    expect(await branding(page.slug)).toBe(false);

    // Once identity has told a plan, the jobs alone change it: a save carrying another plan does not.
    await identitySays({ userId: creator.id, username: creator.username, isPremium: true, changedAt: '2026-11-24T12:00:00.000Z' });
    await waitFor(async () => (await ownerRow(creator.id)).plan_changed_at !== null, true, 10_000);
    await t.signIns.setPremium(creator.id, false);
    expect((await creator.client.put(`/api/pages/${page.id}`, { title: 'Saved as Free' })).status).toBe(200);
    expect(await ownerRow(creator.id)).toMatchObject({ is_premium: true });
  });
});
