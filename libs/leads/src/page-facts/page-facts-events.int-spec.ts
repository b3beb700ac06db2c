import { LeadMessages, QueueName, type EventPayload } from '@plink/contracts';
import { JobQueue } from '@plink/queue';
import { pollUntil } from '@plink/testing';
import { LeadsTestApp, okAnswer, type Creator } from '../testing/leads-test-app';

interface FactsRow {
  slug: string;
  paused: boolean;
  file_url: string | null;
  webhook_on: boolean;
  deleted: boolean;
  version: string;
  public: { title: string; showBranding: boolean; thankYouHeadline: string };
}

/**
 * The leads service's own read model of pages (leads.page_facts), fed by the pages service's 'page.changed'
 * (see LeadsTestApp): it follows every change at once (a visitor may submit the moment a page is published or
 * changed), the owner's plan, deletes, and jobs that come late or twice; and the submissions it serves from it
 * are stored as before. That the pages service's own calls publish these changes is tested in the gateway.
 */
describe('leads: the read model of pages', () => {
  let t: LeadsTestApp;
  let pro: Creator;
  let n = 0;

  beforeAll(async () => {
    t = await LeadsTestApp.start();
    await t.startWorker();
    pro = await t.creator('pro');
  });

  afterAll(async () => {
    await t?.close();
  });

  const factsOf = async (pageId: number): Promise<FactsRow | undefined> =>
    (await t.db.query('select slug, paused, file_url, webhook_on, deleted, version, public from leads.page_facts where page_id = $1', [pageId])).rows[0];

  /** A 'page.changed' (or another event of leads) through the real leads queue and worker; resolves once it has run. */
  async function throughQueue(payload: EventPayload<'page.changed'>): Promise<void>;
  async function throughQueue(payload: EventPayload<'user.deleted'>, name: 'user.deleted'): Promise<void>;
  async function throughQueue(payload: EventPayload<'page.changed'> | EventPayload<'user.deleted'>, name: 'page.changed' | 'user.deleted' = 'page.changed'): Promise<void> {
    const jobs = t.app.get(JobQueue);
    n += 1;
    const jobId = `facts-${Date.now().toString(36)}-${n}`;
    await jobs.addMany([{ name, queue: QueueName.Leads, envelope: { payload, meta: { correlationId: jobId, recordedAt: new Date().toISOString() } }, jobId }]);
    const state = await pollUntil(
      async () => (await t.queue(QueueName.Leads).getJob(jobId))?.getState(),
      (s) => s === 'completed' || s === 'failed',
    );
    expect(state).toBe('completed');
  }

  it('has a page the moment it is published: the first submission right after is stored', async () => {
    const page = await t.createPage(pro, { fileUrl: 'https://files.example/guide.pdf' });
    // Written with the page, before any visitor came (a row filled by the fallback would have version 0).
    const facts = await factsOf(page.id);
    expect(facts).toMatchObject({ slug: page.slug, paused: false, file_url: 'https://files.example/guide.pdf', webhook_on: false, deleted: false });
    expect(Number(facts?.version)).toBeGreaterThan(0);
    expect(await t.submit(page.slug, { email: 'first@example.com', consent: true })).toMatchObject(okAnswer);
    expect(await t.leadCount(page.id)).toBe(1);
  });

  it('follows a change of slug and texts at once: the old slug is gone, the new one answers the new texts', async () => {
    const page = await t.createPage(pro);
    const oldSlug = page.slug;
    expect(await t.submit(oldSlug, { email: 'before@example.com', consent: true })).toMatchObject(okAnswer); // now cached
    const newSlug = `moved-${Date.now().toString(36)}`;
    await t.pages.update(page, { slug: newSlug, thankYouHeadline: 'Welcome aboard' });
    expect(await factsOf(page.id)).toMatchObject({ slug: newSlug, public: { thankYouHeadline: 'Welcome aboard' } });

    const atOld = await t.submit(oldSlug, { email: 'late@example.com', consent: true });
    expect({ status: atOld.status, message: atOld.body.message }).toEqual({ status: 404, message: LeadMessages.pageNotFound });
    const atNew = await t.submit(newSlug, { email: 'after@example.com', consent: true });
    expect({ status: atNew.status, headline: atNew.body.thankYouHeadline }).toEqual({ status: 200, headline: 'Welcome aboard' });
    expect(await t.leadCount(page.id)).toBe(2);
  });

  it("follows the owner's plan and the pages' pausing: a paused page refuses submissions, and takes them again once live", async () => {
    const owner = await t.creator('pro');
    const first = await t.createPage(owner, { webhookUrl: 'https://hooks.example/leads' });
    const second = await t.createPage(owner, { webhookUrl: 'https://hooks.example/leads', showBranding: false });
    expect(await factsOf(second.id)).toMatchObject({ webhook_on: true, paused: false, public: { showBranding: false } });
    expect(await t.submit(second.slug, { email: 'pro@example.com', consent: true })).toMatchObject(okAnswer); // now cached

    // The downgrade as billing's 'plan.changed', then the pages service pausing the second page (its rule for a
    // Free owner) and applying the Free plan to it. The page's webhook stays on: whether its leads are sent is the
    // leads service's call, from the plan it keeps itself.
    await t.setPro(owner.id, false);
    await t.pages.update(second, { paused: true, showBranding: true });
    expect(await factsOf(first.id)).toMatchObject({ paused: false, webhook_on: true });
    expect(await factsOf(second.id)).toMatchObject({ paused: true, webhook_on: true, public: { showBranding: true } });
    const refused = await t.submit(second.slug, { email: 'free@example.com', consent: true });
    expect({ status: refused.status, message: refused.body.message }).toEqual({ status: 404, message: LeadMessages.pagePaused });
    expect(await t.leadCount(second.id)).toBe(1);

    await t.setPro(owner.id, true);
    await t.pages.update(second, { paused: false, showBranding: false });
    expect(await factsOf(second.id)).toMatchObject({ paused: false, webhook_on: true });
    expect(await t.submit(second.slug, { email: 'free@example.com', consent: true })).toMatchObject(okAnswer);
    expect(await t.leadCount(second.id)).toBe(2);
  });

  it('forgets a deleted page, and a late job about it cannot bring it back', async () => {
    const page = await t.createPage(pro);
    const before = await factsOf(page.id);
    await t.pages.delete(page);
    expect(await factsOf(page.id)).toMatchObject({ deleted: true });
    expect((await t.submit(page.slug, { email: 'gone@example.com', consent: true })).status).toBe(404);

    // The page's creation event once more, as a slow worker would run it after the delete.
    await throughQueue({ v: 1, pageId: page.id, version: Number(before?.version), formerSlug: null, page: { ...t.pages.factsOf(page), paused: false } });
    expect(await factsOf(page.id)).toMatchObject({ deleted: true });
    expect((await t.submit(page.slug, { email: 'gone@example.com', consent: true })).status).toBe(404);
    expect(await t.leadCount(page.id)).toBe(0);
  });

  it("forgets a deleted owner's pages for good: no late job brings one back, and what is left names no one", async () => {
    const owner = await t.creator('free');
    const kept = await t.createPage(owner);
    const trashed = await t.createPage(owner);
    const keptFacts = await factsOf(kept.id);
    await t.pages.delete(trashed); // in the Trash: a tombstone that still knows its owner
    await throughQueue({ v: 1, userId: owner.id, deletedAt: new Date().toISOString() }, 'user.deleted');
    kept.deleted = true; // as the pages service removes it (its own 'page.changed' about it runs late below)

    // Jobs still in flight when the account went, run late: the page's creation, an edit, its deletion.
    const version = Number(keptFacts?.version);
    await throughQueue({ v: 1, pageId: kept.id, version, formerSlug: null, page: t.pages.factsOf(kept) });
    await throughQueue({ v: 1, pageId: kept.id, version: version + 60_000, formerSlug: null, page: t.pages.factsOf(kept) });
    await throughQueue({ v: 1, pageId: trashed.id, version: version + 60_000, formerSlug: null, page: null });
    expect((await t.submit(kept.slug, { email: 'ghost@example.com', consent: true })).status).toBe(404);
    expect(await t.leadCount(kept.id)).toBe(0);
    const left = await t.db.query('select page_id, slug, owner_id, owner_username, public, file_url, deleted from leads.page_facts where page_id = any($1) order by page_id', [
      [kept.id, trashed.id],
    ]);
    expect(left.rows).toEqual(
      [kept.id, trashed.id].map((pageId) => ({ page_id: pageId, slug: null, owner_id: null, owner_username: null, public: null, file_url: null, deleted: true })),
    );
  });

  it('takes a change applied by the leads worker in every replica: the cached page is dropped', async () => {
    const page = await t.createPage(pro);
    const facts = await factsOf(page.id);
    const shown = t.pages.factsOf(page);
    expect(await t.submit(page.slug, { email: 'cached@example.com', consent: true })).toMatchObject(okAnswer); // now cached
    await throughQueue({ v: 1, pageId: page.id, version: Number(facts?.version) + 1, formerSlug: null, page: { ...shown, paused: true } });
    const res = await pollUntil(
      () => t.submit(page.slug, { email: 'paused@example.com', consent: true }),
      (r) => r.status === 404,
      5_000,
    );
    expect({ status: res.status, message: res.body.message }).toEqual({ status: 404, message: LeadMessages.pagePaused });
    // An older event than what the read model holds changes nothing.
    await throughQueue({ v: 1, pageId: page.id, version: Number(facts?.version), formerSlug: null, page: shown });
    expect(await factsOf(page.id)).toMatchObject({ paused: true });
  });

  it('fills itself for a page it has not heard of (made before the read model existed), and keeps it', async () => {
    const page = await t.createPage(pro, {}, { announce: false });
    expect(await factsOf(page.id)).toBeUndefined();
    expect(await t.submit(page.slug, { email: 'old-page@example.com', consent: true })).toMatchObject(okAnswer);
    expect(await t.leadCount(page.id)).toBe(1);
    expect(await factsOf(page.id)).toMatchObject({ slug: page.slug, paused: false, deleted: false, version: '0' });
  });
});
