import { MikroORM } from '@mikro-orm/postgresql';
import { loadConfig, openOrm, withOrmContext } from '@plink/platform';
import { createTestEnvironment, type TestEnvironment } from '@plink/testing';
import { LEADS_SCHEMA } from '../leads.schema';
import { DeletePageLeadsService } from '../use-cases/delete-page-leads.service';
import { LeadsRepository } from './leads.repository';

/** The leads tables on a real PostgreSQL: uniqueness, counting, keyset batches and batched deletes. */
describe('LeadsRepository', () => {
  let env: TestEnvironment;
  let orm: MikroORM;
  let repo: LeadsRepository;

  beforeAll(async () => {
    env = await createTestEnvironment({ DATABASE_POOL_MAX: '10' });
    orm = await openOrm(loadConfig(env.vars), [LEADS_SCHEMA]);
    repo = new LeadsRepository(orm.em);
  });

  afterAll(async () => {
    await orm?.close();
    await env?.cleanup();
  });

  const inContext = <T>(fn: () => Promise<T>) => withOrmContext(orm, fn);
  const insert = (pageId: number, email: string) =>
    inContext(() => repo.insertAndCount(orm.em, { pageId, email, consentAt: new Date() }));

  it('stores one lead and one conversion per page and lower-cased address, even when racing', async () => {
    const ids = await Promise.all(Array.from({ length: 50 }, (_, i) => insert(1, i % 2 ? 'Race@Example.com' : 'race@example.COM')));
    expect(ids.filter((id) => id !== null)).toHaveLength(1);
    expect(await insert(2, 'race@example.com')).toEqual(expect.any(Number)); // another page: its own lead
    const counts = await inContext(() => repo.conversionsFor([1, 2, 3]));
    expect([...counts]).toEqual([[1, 1], [2, 1], [3, 0]]);
    expect(await inContext(() => repo.findById(ids.find((id) => id !== null)!))).toEqual({ id: expect.any(Number), pageId: 1, email: expect.stringMatching(/^race@example\.com$/i) });
  });

  it('counts every one of many simultaneous distinct leads', async () => {
    await Promise.all(Array.from({ length: 500 }, (_, i) => insert(10, `crowd${i}@example.com`)));
    expect(await inContext(() => repo.conversions(10))).toBe(500);
    expect(await inContext(() => repo.recent(10, 5))).toHaveLength(5);
  });

  it('pages through leads by id up to a fixed last id, and deletes a page’s leads in batches, idempotently', async () => {
    for (let i = 0; i < 25; i += 1) await insert(20, `batch${i}@example.com`);
    const last = await inContext(() => repo.lastId(20));
    await insert(20, 'after-last@example.com');
    const seen: string[] = [];
    let after = 0;
    for (;;) {
      const batch = await inContext(() => repo.batchAfter(20, after, last, 10));
      if (batch.length === 0) break;
      seen.push(...batch.map((l) => l.email));
      after = batch[batch.length - 1].id;
    }
    expect(seen).toHaveLength(25);
    expect(seen).not.toContain('after-last@example.com');

    const remover = new DeletePageLeadsService(repo);
    await inContext(() => remover.execute(20));
    await inContext(() => remover.execute(20)); // a retried job changes nothing
    expect(await inContext(() => repo.conversions(20))).toBe(0);
    expect(await inContext(() => repo.lastId(20))).toBe(0);
    expect(await inContext(() => repo.conversions(10))).toBe(500); // other pages untouched
  });
});
