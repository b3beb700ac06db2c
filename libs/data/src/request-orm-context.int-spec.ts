import type { MikroORM } from '@mikro-orm/postgresql';
import { createTestEnvironment, type TestEnvironment } from '@plink/testing';
import { loadConfig } from '@plink/config';
import { openOrm, withOrmContext } from './database.module';
import { runWithRequestOrmContext } from './request-orm-context';

describe('ORM context of an HTTP request (real PostgreSQL)', () => {
  let env: TestEnvironment;
  let orm: MikroORM;

  beforeAll(async () => {
    env = await createTestEnvironment();
    orm = await openOrm(loadConfig(env.vars), []);
  });

  afterAll(async () => {
    await orm?.close();
    await env?.cleanup();
  });

  const answer = async () => (await orm.em.getConnection().execute<{ one: number }[]>('select 1 as one'))[0].one;

  it('refuses the global context outside a request or job', () => {
    expect(() => orm.em.getContext()).toThrow(/global/i);
  });

  it('forks once per request that uses the database, and never for one that does not', async () => {
    const forks = jest.spyOn(orm.em, 'fork');
    try {
      await runWithRequestOrmContext(orm, async () => 'a cached page');
      expect(forks).not.toHaveBeenCalled();

      const [first, second] = await Promise.all(
        [1, 2].map(() =>
          runWithRequestOrmContext(orm, async () => {
            const em = orm.em.getContext();
            expect(await answer()).toBe(1);
            expect(orm.em.getContext()).toBe(em);
            return em;
          }),
        ),
      );
      expect(forks).toHaveBeenCalledTimes(2);
      expect(first).not.toBe(second);
      expect(first).not.toBe(orm.em);
    } finally {
      forks.mockRestore();
    }
  });

  it('gives a job or timer started inside a request its own context, and the request keeps its own', async () => {
    await runWithRequestOrmContext(orm, async () => {
      const request = orm.em.getContext();
      const job = await withOrmContext(orm, async () => orm.em.getContext());
      expect(job).not.toBe(request);
      expect(orm.em.getContext()).toBe(request);
    });
  });
});
