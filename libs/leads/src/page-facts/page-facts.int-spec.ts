import { MikroORM } from '@mikro-orm/postgresql';
import type { EventPayload, PageFacts } from '@plink/contracts';
import { Outbox, type JobQueue } from '@plink/queue';
import { loadConfig } from '@plink/config';
import { openOrm, withOrmContext } from '@plink/data';
import { createTestEnvironment, type TestEnvironment } from '@plink/testing';
import { LEADS_SCHEMA } from '../leads.schema';
import { OwnerPlansRepository, PageFactsRepository, sendsWebhook } from './page-facts.repository';

/** The read model of pages on a real PostgreSQL: newest state wins, deletes stick, and in-transaction application. */
describe('PageFactsRepository', () => {
  let env: TestEnvironment;
  let orm: MikroORM;
  let repo: PageFactsRepository;
  let outbox: Outbox;

  beforeAll(async () => {
    env = await createTestEnvironment({ DATABASE_POOL_MAX: '5' });
    orm = await openOrm(loadConfig(env.vars), [LEADS_SCHEMA]);
    // An outbox whose queues never answer: recorded jobs stay in platform.outbox.
    outbox = new Outbox(orm, { ready: () => false, onReady: () => undefined } as unknown as JobQueue);
    repo = new PageFactsRepository(orm.em);
  });

  afterAll(async () => {
    await orm?.close();
    await env?.cleanup();
  });

  const facts = (slug: string, more: Partial<PageFacts> = {}): PageFacts => ({
    slug,
    ownerId: 7,
    ownerUsername: 'ada',
    paused: false,
    fileUrl: null,
    webhookOn: false,
    public: { slug, thankYouHeadline: 'Thanks' },
    ...more,
  });
  const event = (pageId: number, version: number, page: PageFacts | null, formerSlug: string | null = null): EventPayload<'page.changed'> => ({
    v: 1,
    pageId,
    version,
    formerSlug,
    page,
  });
  const apply = (e: EventPayload<'page.changed'>) => withOrmContext(orm, () => repo.apply(orm.em, e));

  it('keeps the newest state of a page whatever order its events come in, and answers the slugs to drop', async () => {
    expect(await apply(event(1, 100, facts('first')))).toEqual(['first']);
    expect(await apply(event(1, 300, facts('renamed', { paused: true }), 'first'))).toEqual(['first', 'renamed']);
    // Older than what the row holds (a slow or repeated job): nothing changes, nothing to drop.
    expect(await apply(event(1, 200, facts('first')))).toEqual([]);
    expect(await repo.findBySlug('first')).toBeNull();
    expect(await repo.findBySlug('RENAMED')).toMatchObject({ id: 1, slug: 'renamed', paused: true, ownerUsername: 'ada' });
    // The same event again changes nothing visible.
    await apply(event(1, 300, facts('renamed', { paused: true }), 'first'));
    expect(await repo.findBySlug('renamed')).toMatchObject({ id: 1, paused: true });
  });

  it('keeps a deleted page deleted, and lets its slug go to another page', async () => {
    await apply(event(2, 100, facts('shared', { fileUrl: 'https://files.example.com/guide.pdf' })));
    expect(await apply(event(2, 200, null))).toEqual(['shared']);
    expect(await repo.findBySlug('shared')).toBeNull();
    await apply(event(2, 150, facts('shared'))); // late
    expect(await repo.findBySlug('shared')).toBeNull();
    // Another page takes the slug; a stale row of a page that moved away would not win over it.
    await apply(event(3, 400, facts('shared', { webhookOn: true })));
    expect(await repo.findBySlug('shared')).toMatchObject({ id: 3, webhookOn: true, fileUrl: null });
  });

  it("reads the owner's plan beside the page: the newest version billing published, whatever order it came in", async () => {
    const plans = new OwnerPlansRepository(orm.em);
    const plan = (userId: number, version: number, isPremium: boolean): EventPayload<'plan.changed'> => ({
      v: 1,
      userId,
      isPremium,
      planStatus: isPremium ? 'active' : 'canceled',
      periodEnd: null,
      stripeCustomerId: null,
      stripeSubscriptionId: null,
      version,
      changedAt: '2026-11-28T10:00:00.000Z',
    });
    await apply(event(6, 100, facts('hooked', { ownerId: 9, webhookOn: true })));
    // No plan heard of yet: Free, version 0, and no webhook.
    expect(await repo.findBySlug('hooked')).toMatchObject({ ownerIsPro: false, planVersion: 0 });
    expect(sendsWebhook((await repo.findBySlug('hooked'))!)).toBe(false);
    // The owner's pages' slugs come back, to be dropped from every cache.
    expect(await withOrmContext(orm, () => plans.apply(plan(9, 2, true)))).toEqual(['hooked']);
    expect(await repo.findBySlug('hooked')).toMatchObject({ ownerIsPro: true, planVersion: 2 });
    expect(sendsWebhook((await repo.findBySlug('hooked'))!)).toBe(true);
    // Older, or the same again: nothing changes, nothing to drop.
    expect(await withOrmContext(orm, () => plans.apply(plan(9, 1, false)))).toEqual([]);
    expect(await withOrmContext(orm, () => plans.apply(plan(9, 2, false)))).toEqual([]);
    expect(await repo.findBySlug('hooked')).toMatchObject({ ownerIsPro: true, planVersion: 2 });
    await withOrmContext(orm, () => plans.apply(plan(9, 3, false)));
    expect(sendsWebhook((await repo.findBySlug('hooked'))!)).toBe(false);
  });

  it('lets an event win over what the fallback kept, before or after it', async () => {
    await repo.remember(4, facts('kept', { paused: true }));
    expect(await repo.findBySlug('kept')).toMatchObject({ id: 4, paused: true });
    await apply(event(4, 10, facts('kept')));
    expect(await repo.findBySlug('kept')).toMatchObject({ id: 4, paused: false });
    await repo.remember(4, facts('kept', { paused: true }));
    expect(await repo.findBySlug('kept')).toMatchObject({ id: 4, paused: false });
  });

  it('is applied in the transaction that records the event (Outbox.applyHere): gone with a rollback; after-commit work only after a commit', async () => {
    const committed: string[][] = [];
    outbox.applyHere('page.changed', async (em, payload) => {
      const slugs = await repo.apply(em, payload);
      return () => {
        committed.push(slugs);
      };
    });

    await expect(
      orm.em.fork().transactional(async (tx) => {
        outbox.publish(tx, 'page.changed', event(5, 100, facts('rolled-back')));
        await tx.flush();
        // Inside the transaction the row is there already…
        const rows: unknown[] = await tx.execute('select 1 from leads.page_facts where page_id = 5');
        expect(rows).toHaveLength(1);
        throw new Error('the change fails');
      }),
    ).rejects.toThrow('the change fails');
    // …and goes with it.
    expect(await repo.findBySlug('rolled-back')).toBeNull();
    expect(committed).toEqual([]);

    await orm.em.fork().transactional(async (tx) => {
      outbox.publish(tx, 'page.changed', event(5, 200, facts('committed')));
      await tx.flush();
      expect(committed).toEqual([]);
    });
    expect(committed).toEqual([['committed']]);
    expect(await repo.findBySlug('committed')).toMatchObject({ id: 5 });
    const jobs: { n: string }[] = await orm.em.fork().execute("select count(*) as n from platform.outbox where job_name = 'page.changed'");
    expect(Number(jobs[0].n)).toBe(1); // the relayed job still follows, for the other processes
  });
});
