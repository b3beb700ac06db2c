import type { Client } from 'pg';
import { LeadMessages, QueueName, type EventPayload } from '@plink/contracts';
import { JobQueue } from '@plink/queue';
import { OwnerPlanChangedService } from '@plink/pages';
import { leadsGateway, okAnswer, type Creator } from './testing/leads-gateway';

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
 * The leads service's own read model of pages (leads.page_facts), as creators and visitors meet it: it
 * follows every change a creator makes at once (a visitor may submit the moment a page is published or
 * changed), the owner's plan, deletes, and jobs that come late or twice; and the submissions it serves
 * from it are stored as before.
 */
describe('leads, end to end: the read model of pages', () => {
  const world = leadsGateway();
  const { tag, creator, createPage, submit, leadCount, eventually } = world;
  let db: Client;
  let pro: Creator;
  beforeAll(() => {
    ({ db, pro } = world);
  });

  const factsOf = async (pageId: number): Promise<FactsRow | undefined> =>
    (await db.query('select slug, paused, file_url, webhook_on, deleted, version, public from leads.page_facts where page_id = $1', [pageId])).rows[0];

  /** A 'page.changed' message through the real leads queue and worker; resolves once it has run. */
  async function throughQueue(payload: EventPayload<'page.changed'>): Promise<void> {
    const jobs = world.app.get(JobQueue, { strict: false });
    const jobId = `facts-${tag()}`;
    await jobs.addMany([{ name: 'page.changed', queue: QueueName.Leads, envelope: { payload, meta: { correlationId: jobId, recordedAt: new Date().toISOString() } }, jobId }]);
    const state = await eventually(
      async () => (await world.queue(QueueName.Leads).getJob(jobId))?.getState(),
      (s) => s === 'completed' || s === 'failed',
    );
    expect(state).toBe('completed');
  }

  it('has a page the moment it is published: the first submission right after is stored', async () => {
    const page = await createPage(pro, { fileUrl: 'https://files.example/guide.pdf' });
    // Written with the page, before any visitor came (a row filled by the fallback would have version 0).
    const facts = await factsOf(page.id);
    expect(facts).toMatchObject({ slug: page.slug, paused: false, file_url: 'https://files.example/guide.pdf', webhook_on: false, deleted: false });
    expect(Number(facts?.version)).toBeGreaterThan(0);
    expect(await submit(page.slug, { email: 'first@example.com', consent: true })).toMatchObject(okAnswer);
    expect(await leadCount(page.id)).toBe(1);
  });

  it('follows a change of slug and texts at once: the old slug is gone, the new one answers the new texts', async () => {
    const page = await createPage(pro);
    expect(await submit(page.slug, { email: 'before@example.com', consent: true })).toMatchObject(okAnswer); // now cached
    const newSlug = `moved-${tag()}`;
    const res = await pro.browser.request('PUT', `/api/pages/${page.id}`, { slug: newSlug, thankYouHeadline: 'Welcome aboard' });
    expect(res.status).toBe(200);
    expect(await factsOf(page.id)).toMatchObject({ slug: newSlug, public: { thankYouHeadline: 'Welcome aboard' } });

    const atOld = await submit(page.slug, { email: 'late@example.com', consent: true });
    expect({ status: atOld.status, message: atOld.body.message }).toEqual({ status: 404, message: LeadMessages.pageNotFound });
    const atNew = await submit(newSlug, { email: 'after@example.com', consent: true });
    expect({ status: atNew.status, headline: atNew.body.thankYouHeadline }).toEqual({ status: 200, headline: 'Welcome aboard' });
    expect(await leadCount(page.id)).toBe(2);
  });

  it("follows the owner's plan: pages paused on a downgrade refuse submissions and stop sending webhooks, and are back on an upgrade", async () => {
    const owner = await creator('pro');
    const first = await createPage(owner, { webhookUrl: 'https://hooks.example/leads' });
    const second = await createPage(owner, { webhookUrl: 'https://hooks.example/leads', showBranding: false });
    expect(await factsOf(second.id)).toMatchObject({ webhook_on: true, paused: false, public: { showBranding: false } });
    expect(await submit(second.slug, { email: 'pro@example.com', consent: true })).toMatchObject(okAnswer); // now cached

    const plans = world.app.get(OwnerPlanChangedService, { strict: false });
    // As billing's 'plan.changed' reaches the pages service (a version above any the grant made). The page's
    // webhook stays on: whether its leads are sent is the leads service's call, from the plan it keeps itself.
    await plans.execute(owner.id, new Date(), { isPremium: false, version: 1_000 });
    expect(await factsOf(first.id)).toMatchObject({ paused: false, webhook_on: true });
    expect(await factsOf(second.id)).toMatchObject({ paused: true, webhook_on: true, public: { showBranding: true } });
    const refused = await submit(second.slug, { email: 'free@example.com', consent: true });
    expect({ status: refused.status, message: refused.body.message }).toEqual({ status: 404, message: LeadMessages.pagePaused });
    expect(await leadCount(second.id)).toBe(1);

    await plans.execute(owner.id, new Date(), { isPremium: true, version: 1_001 });
    expect(await factsOf(second.id)).toMatchObject({ paused: false, webhook_on: true });
    expect(await submit(second.slug, { email: 'free@example.com', consent: true })).toMatchObject(okAnswer);
    expect(await leadCount(second.id)).toBe(2);
  });

  it('forgets a deleted page, and a late job about it cannot bring it back', async () => {
    const page = await createPage(pro);
    const before = await factsOf(page.id);
    expect((await pro.browser.request('DELETE', `/api/pages/${page.id}`)).status).toBe(200);
    expect(await factsOf(page.id)).toMatchObject({ deleted: true });
    expect((await submit(page.slug, { email: 'gone@example.com', consent: true })).status).toBe(404);

    // The page's creation event once more, as a slow worker would run it after the delete.
    await throughQueue({
      v: 1,
      pageId: page.id,
      version: Number(before?.version),
      formerSlug: null,
      page: { slug: page.slug, ownerId: pro.id, ownerUsername: pro.username, paused: false, fileUrl: null, webhookOn: false, public: before!.public },
    });
    expect(await factsOf(page.id)).toMatchObject({ deleted: true });
    expect((await submit(page.slug, { email: 'gone@example.com', consent: true })).status).toBe(404);
    expect(await leadCount(page.id)).toBe(0);
  });

  it('takes a change applied by the leads worker in every replica: the cached page is dropped', async () => {
    const page = await createPage(pro);
    const facts = await factsOf(page.id);
    expect(await submit(page.slug, { email: 'cached@example.com', consent: true })).toMatchObject(okAnswer); // now cached
    await throughQueue({
      v: 1,
      pageId: page.id,
      version: Number(facts?.version) + 1,
      formerSlug: null,
      page: { slug: page.slug, ownerId: pro.id, ownerUsername: pro.username, paused: true, fileUrl: null, webhookOn: false, public: facts!.public },
    });
    const res = await eventually(
      () => submit(page.slug, { email: 'paused@example.com', consent: true }),
      (r) => r.status === 404,
      5_000,
    );
    expect({ status: res.status, message: res.body.message }).toEqual({ status: 404, message: LeadMessages.pagePaused });
    // An older event than what the read model holds changes nothing.
    await throughQueue({
      v: 1,
      pageId: page.id,
      version: Number(facts?.version),
      formerSlug: null,
      page: { slug: page.slug, ownerId: pro.id, ownerUsername: pro.username, paused: false, fileUrl: null, webhookOn: false, public: facts!.public },
    });
    expect(await factsOf(page.id)).toMatchObject({ paused: true });
  });

  it('fills itself for a page it has not heard of (made before the read model existed), and keeps it', async () => {
    const page = await createPage(pro);
    // Once the worker has also run the page's event (a row it brought back would hide what this shows).
    const created = await eventually(
      async () => (await world.jobsOf(QueueName.Leads, 'page.changed')).filter((j) => j.data?.payload?.pageId === page.id && j.finishedOn),
      (jobs) => jobs.length > 0,
    );
    expect(created).toHaveLength(1);
    await db.query('delete from leads.page_facts where page_id = $1', [page.id]);
    expect(await submit(page.slug, { email: 'old-page@example.com', consent: true })).toMatchObject(okAnswer);
    expect(await leadCount(page.id)).toBe(1);
    expect(await factsOf(page.id)).toMatchObject({ slug: page.slug, paused: false, deleted: false, version: '0' });
  });
});
