import { MikroORM } from '@mikro-orm/postgresql';
import { QueueName, type JobPayload } from '@plink/contracts';
import { JobQueue, Outbox } from '@plink/queue';
import { PagesTestApp, waitFor } from '../testing/pages-test-app';

/**
 * The pages service's own copy of its page owners (username and plan, pages.owners): it follows billing's
 * 'plan.changed' through the real outbox, queue and pages worker (the newest version wins), and a creator's
 * own save fills in an owner it has not heard of yet. Visitors see what it says.
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

  /** Publishes the plan as billing does ('plan.changed', through the outbox, to every subscriber's queue). */
  async function billingSays(change: { userId: number; isPremium: boolean; version: number }) {
    const em = t.app.get(MikroORM).em.fork();
    t.app.get(Outbox).publish(em, 'plan.changed', {
      v: 1,
      ...change,
      planStatus: change.isPremium ? 'active' : 'canceled',
      periodEnd: null,
      stripeCustomerId: null,
      stripeSubscriptionId: null,
      changedAt: new Date().toISOString(),
    });
    await em.flush();
  }

  /** Publishes a profile change as identity does ('user.changed', through the outbox). */
  async function identitySays(change: { userId: number; username: string; email: string; version: number }) {
    const em = t.app.get(MikroORM).em.fork();
    t.app.get(Outbox).publish(em, 'user.changed', { v: 1, ...change });
    await em.flush();
  }

  /** The owner names in the 'page.changed' facts sent to the leads service for a page, oldest first. */
  async function leadsToldOwnerOf(pageId: number): Promise<string[]> {
    const jobs = await t.app.get(JobQueue).queue(QueueName.Leads).getJobs(['waiting', 'delayed', 'prioritized', 'active', 'completed', 'failed']);
    return jobs
      .filter((j) => j?.name === 'page.changed' && (j.data.payload as JobPayload<'page.changed'>).pageId === pageId)
      .map((j) => j.data.payload as JobPayload<'page.changed'>)
      .sort((a, b) => a.version - b.version)
      .map((p) => p.page?.ownerUsername ?? '');
  }

  /** The 'user.changed' messages of a user the pages worker has finished. */
  async function renamesDone(userId: number): Promise<number> {
    const jobs = await t.app.get(JobQueue).queue(QueueName.Pages).getJobs(['completed']);
    return jobs.filter((j) => j?.name === 'user.changed' && (j.data.payload as JobPayload<'user.changed'>).userId === userId).length;
  }

  /** The reply-to addresses in the 'page.changed' facts sent to the leads service for a page, oldest first. */
  async function leadsToldReplyToOf(pageId: number): Promise<(string | null)[]> {
    const jobs = await t.app.get(JobQueue).queue(QueueName.Leads).getJobs(['waiting', 'delayed', 'prioritized', 'active', 'completed', 'failed']);
    return jobs
      .filter((j) => j?.name === 'page.changed' && (j.data.payload as JobPayload<'page.changed'>).pageId === pageId)
      .map((j) => j.data.payload as JobPayload<'page.changed'>)
      .sort((a, b) => a.version - b.version)
      .map((p) => p.page?.deliveryEmail?.replyTo ?? null);
  }

  const ownerRow = async (userId: number) =>
    (await t.db.query('select username, is_premium, plan_version from pages.owners where user_id = $1', [userId])).rows[0];
  const branding = async (pageSlug: string) => (await visitor().get(`/api/page/${pageSlug}`)).body.showBranding as boolean;

  it('follows billing’s plan changes: the visitor’s page and the pausing follow the newest, a late older one changes nothing', async () => {
    const pro = await t.creator({ premium: true });
    const first = (await pro.client.post('/api/pages', { slug: slug('owner-first'), showBranding: false })).body;
    const second = (await pro.client.post('/api/pages', { slug: slug('owner-second'), showBranding: false })).body;
    // The first save made the owner known, as their request carried them.
    expect(await ownerRow(pro.id)).toEqual({ username: pro.username, is_premium: true, plan_version: 0 });
    expect(await branding(first.slug)).toBe(false);

    await t.signIns.setPremium(pro.id, false);
    await billingSays({ userId: pro.id, isPremium: false, version: 2 });
    expect((await waitFor(() => branding(first.slug), true, 10_000)).value).toBe(true);
    expect(await ownerRow(pro.id)).toEqual({ username: pro.username, is_premium: false, plan_version: 2 });
    // A Free owner keeps the oldest page live.
    expect((await visitor().get(`/api/page/${second.slug}`)).status).toBe(404);

    // A copy of an older change (Pro) arriving late, and the same version again: ignored.
    await billingSays({ userId: pro.id, isPremium: true, version: 1 });
    await billingSays({ userId: pro.id, isPremium: true, version: 2 });
    await new Promise((r) => setTimeout(r, 2_500));
    expect(await ownerRow(pro.id)).toMatchObject({ is_premium: false });
    expect(await branding(first.slug)).toBe(true);
    expect((await visitor().get(`/api/page/${second.slug}`)).status).toBe(404);

    // Pro again, later: every page live, the owner's settings back.
    await billingSays({ userId: pro.id, isPremium: true, version: 3 });
    expect((await waitFor(async () => (await visitor().get(`/api/page/${second.slug}`)).status, 200, 10_000)).value).toBe(200);
    expect(await branding(first.slug)).toBe(false);
  });

  it('keeps the plan of a user who has no page yet, and their first save finds it', async () => {
    const creator = await t.creator();
    // Pro from billing before any save: kept without a username (not an owner yet).
    await billingSays({ userId: creator.id, isPremium: true, version: 1 });
    await waitFor(async () => (await ownerRow(creator.id))?.plan_version, 1, 10_000);
    expect(await ownerRow(creator.id)).toEqual({ username: null, is_premium: true, plan_version: 1 });
    // The first save, whose request (identity's copy, not caught up yet) still says Free: billing's plan stands.
    expect((await creator.client.post('/api/pages', { slug: slug('first-save') })).status).toBe(201);
    expect(await ownerRow(creator.id)).toEqual({ username: creator.username, is_premium: true, plan_version: 1 });
  });

  it('takes the plan a creator’s request carries only until billing has told it one', async () => {
    const creator = await t.creator();
    const page = (await creator.client.post('/api/pages', { slug: slug('told') })).body;
    // Made Pro before any plan change reached this copy: the next save says so.
    await t.signIns.setPremium(creator.id, true);
    expect((await creator.client.put(`/api/pages/${page.id}`, { showBranding: false })).status).toBe(200);
    expect(await ownerRow(creator.id)).toMatchObject({ is_premium: true, plan_version: 0 });
    expect(await branding(page.slug)).toBe(false);

    // Once billing has told a plan, its changes alone change it: a save carrying another plan does not.
    await billingSays({ userId: creator.id, isPremium: true, version: 1 });
    await waitFor(async () => (await ownerRow(creator.id)).plan_version, 1, 10_000);
    await t.signIns.setPremium(creator.id, false);
    expect((await creator.client.put(`/api/pages/${page.id}`, { title: 'Saved as Free' })).status).toBe(200);
    expect(await ownerRow(creator.id)).toMatchObject({ is_premium: true });
  });

  it('follows identity’s renames: the pages answer under the new name only, the leads service is told, a late or stale name changes nothing', async () => {
    const creator = await t.creator();
    const page = (await creator.client.post('/api/pages', { slug: slug('renamed') })).body;
    expect((await visitor().get(`/p/${creator.username}/${page.slug}`)).status).toBe(200);

    const newName = `renamed_${Date.now().toString(36)}`;
    await identitySays({ userId: creator.id, username: newName, email: creator.email, version: 1 });
    await waitFor(async () => (await visitor().get(`/p/${newName}/${page.slug}`)).status, 200, 10_000);
    expect((await visitor().get(`/p/${creator.username}/${page.slug}`)).status).toBe(404);
    expect((await visitor().get(`/${page.slug}`)).status).toBe(200);
    expect((await visitor().get(`/api/page/${page.slug}`)).body.author).toBe(newName);
    expect(await ownerRow(creator.id)).toMatchObject({ username: newName });
    expect((await waitFor(async () => (await leadsToldOwnerOf(page.id)).at(-1), newName, 10_000)).value).toBe(newName);

    // A save whose request still carries the old name (read before the rename) does not undo it.
    expect((await creator.client.put(`/api/pages/${page.id}`, { title: 'Saved after the rename' })).status).toBe(200);
    expect(await ownerRow(creator.id)).toMatchObject({ username: newName });
    // An older rename arriving late: ignored.
    await identitySays({ userId: creator.id, username: 'older_name', email: creator.email, version: 1 });
    await waitFor(() => renamesDone(creator.id), 2, 10_000);
    expect(await ownerRow(creator.id)).toMatchObject({ username: newName });
    expect((await visitor().get(`/p/older_name/${page.slug}`)).status).toBe(404);
  });

  it('follows identity’s e-mail changes: the delivery e-mail replies to the new address, a save read before it does not undo it', async () => {
    const creator = await t.creator();
    const page = (await creator.client.post('/api/pages', { slug: slug('new-address') })).body;
    expect((await waitFor(async () => (await leadsToldReplyToOf(page.id)).at(-1), creator.email, 10_000)).value).toBe(creator.email);

    const newEmail = `moved.${Date.now().toString(36)}@example.com`;
    await identitySays({ userId: creator.id, username: creator.username, email: newEmail, version: 1 });
    expect((await waitFor(async () => (await leadsToldReplyToOf(page.id)).at(-1), newEmail, 10_000)).value).toBe(newEmail);
    // This session's request still carries the old address: the save keeps identity's newer one.
    expect((await creator.client.put(`/api/pages/${page.id}`, { title: 'Saved after the change' })).status).toBe(200);
    expect((await t.db.query('select email from pages.owners where user_id = $1', [creator.id])).rows[0].email).toBe(newEmail);
    expect((await waitFor(async () => (await leadsToldReplyToOf(page.id)).length, 3, 10_000)).value).toBe(3);
    expect((await leadsToldReplyToOf(page.id)).at(-1)).toBe(newEmail);
  });
});
