import { Module } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import type { INestApplicationContext } from '@nestjs/common';
import { EntityManager, MikroORM } from '@mikro-orm/postgresql';
import { Queue } from 'bullmq';
import { QueueName } from '@plink/contracts';
import { recordedJobs } from '@plink/contracts/testing';
import { ControlledRedis, createTestEnvironment, type TestEnvironment } from '@plink/testing';
import { ConfigModule, loadConfig, type AppConfig } from '@plink/config';
import { DatabaseModule } from '@plink/data';
import { RedisModule } from '@plink/redis';
import { QueueModule } from './queue.module';
import { runWithCorrelation } from '@plink/observability';
import { Outbox } from './outbox.service';

/** A job recorded while Redis is unreachable waits in PostgreSQL and reaches BullMQ once Redis is back. */
describe('outbox relay across a Redis outage', () => {
  let redis: ControlledRedis;
  let env: TestEnvironment;
  let config: AppConfig;
  let app: INestApplicationContext;
  let queue: Queue;

  beforeAll(async () => {
    redis = await ControlledRedis.start();
    env = await createTestEnvironment({ REDIS_URL: redis.url });
    config = loadConfig(env.vars);
    @Module({ imports: [ConfigModule.forRoot(config), DatabaseModule.forRoot([]), RedisModule, QueueModule] })
    class TestModule {}
    app = await NestFactory.createApplicationContext(TestModule, { logger: false });
    await app.init();
    queue = new Queue(QueueName.Email, { connection: { url: redis.url }, prefix: `${config.redisPrefix}bull` });
    queue.on('error', () => undefined); // the outage below is on purpose
  });

  afterAll(async () => {
    await queue?.close();
    await app?.close();
    await env?.cleanup();
    await redis?.destroy();
  });

  const outboxRows = async () => {
    const rows: { count: string }[] = await app.get(MikroORM).em.fork().execute('select count(*) from platform.outbox');
    return Number(rows[0].count);
  };

  it('keeps the job in the outbox during the outage and delivers it exactly once afterwards', async () => {
    const outbox = app.get(Outbox);
    const em = app.get(EntityManager).fork();

    await redis.stop();
    await em.transactional(async (tx) => {
      outbox.record(tx, 'email.verification', { v: 1, to: recipient(42), sealedToken: 'sealed' });
    });
    await expect(outbox.relayOnce()).resolves.toBe(0);
    expect(await outboxRows()).toBe(1);

    await redis.start();
    const deadline = Date.now() + 30_000;
    while ((await outboxRows()) > 0 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 200));
    expect(await outboxRows()).toBe(0);

    const jobs = await queue.getJobs(['waiting', 'active', 'completed', 'delayed']);
    expect(jobs).toHaveLength(1);
    expect(jobs[0].name).toBe('email.verification');
    expect(jobs[0].data.payload).toEqual({ v: 1, to: recipient(42), sealedToken: 'sealed' });
    expect(jobs[0].data.meta.correlationId).toEqual(expect.any(String));
  }, 60_000);

  it('records nothing when the transaction rolls back', async () => {
    const outbox = app.get(Outbox);
    const em = app.get(EntityManager).fork();
    await expect(
      em.transactional(async (tx) => {
        outbox.record(tx, 'email.password-reset', { v: 1, to: recipient(7), sealedToken: 'sealed' });
        await tx.flush();
        throw new Error('the change failed');
      }),
    ).rejects.toThrow('the change failed');
    expect(await outboxRows()).toBe(0);
  });

  /** Runs `fn` with the relay's 1 s poll off: only a wake-up after a commit can move jobs meanwhile. */
  const withoutPolling = async (fn: () => Promise<void>) => {
    const outbox = app.get(Outbox);
    clearInterval((outbox as unknown as { timer: NodeJS.Timeout }).timer);
    try {
      await fn();
    } finally {
      outbox.onApplicationBootstrap(); // polling again
    }
  };

  /** The tokens of the e-mail jobs in BullMQ (verification and reset jobs carry one). */
  const queuedTokens = async () =>
    (await queue.getJobs(['waiting', 'active', 'completed', 'delayed'])).map((j) => j.data.payload.sealedToken as string | undefined).filter((t) => t !== undefined);

  it('relays what a unit of work recorded once it commits, however it commits, with no call but record', () =>
    withoutPolling(async () => {
      const outbox = app.get(Outbox);
      const orm = app.get(MikroORM);
      const relay = outbox as unknown as { running?: Promise<number>; waiting?: NodeJS.Timeout };
      const relayBusy = () => Boolean(relay.running || relay.waiting);
      const record = async (em: EntityManager, token: string) => {
        outbox.record(em, 'email.verification', { v: 1, to: recipient(5), sealedToken: token });
        await em.flush();
        if (em.isInTransaction()) expect({ token, woken: relayBusy() }).toEqual({ token, woken: false }); // not before the commit
      };
      /** With the relay idle and polling off, only the wake-up after `commit` can bring `token` to the queue. */
      const relayedAfter = async (token: string, commit: () => Promise<unknown>) => {
        while (relayBusy()) await new Promise((r) => setTimeout(r, 10));
        await commit();
        const deadline = Date.now() + 10_000;
        let tokens = await queuedTokens();
        while (!tokens.includes(token) && Date.now() < deadline) {
          await new Promise((r) => setTimeout(r, 50));
          tokens = await queuedTokens();
        }
        expect({ token, relayed: tokens.includes(token) }).toEqual({ token, relayed: true });
      };

      await relayedAfter('wake-transactional', () => orm.em.fork().transactional((tx) => record(tx, 'wake-transactional')));
      // A flush outside a transaction commits a transaction of its own.
      await relayedAfter('wake-flush', () => record(orm.em.fork(), 'wake-flush'));
      // A transaction inside a transaction (a savepoint): its rows commit with the outer one.
      await relayedAfter('wake-savepoint', () =>
        orm.em.fork().transactional(async (outer) => {
          await outer.transactional((inner) => record(inner, 'wake-savepoint'));
          expect(relayBusy()).toBe(false);
        }),
      );
      await relayedAfter('wake-begin-commit', async () => {
        const em = orm.em.fork();
        await em.begin();
        await record(em, 'wake-begin-commit');
        await em.commit();
      });
      // The relay deletes a batch's rows once BullMQ has its jobs: the last token can be queued a moment
      // before its row is gone.
      const deadline = Date.now() + 10_000;
      while ((await outboxRows()) > 0 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50));
      expect(await outboxRows()).toBe(0);
    }));

  it('records per-row jobs inside a statement that writes rows of several requests at once, and relays them', () =>
    withoutPolling(async () => {
      const outbox = app.get(Outbox);
      await app.get(EntityManager).fork().execute('create table if not exists public.batch_things (id serial primary key, name text)');
      // Each request's jobs carry its own correlation id.
      const fileEmail = { v: 1, to: 'visitor@example.com', page: { id: 9, title: 'Guide', fileUrl: 'https://files.example/guide.pdf' }, senderName: 'ada' };
      const delivery = { v: 1, pageId: 9, email: 'visitor@example.com', consentAt: null, page: { slug: 'guide', title: 'Guide', url: 'https://plink.example/guide' }, pageVersion: 1, planVersion: 1 };
      const file = runWithCorrelation('batch-request-a', () => outbox.jobsForNewRow([{ name: 'email.file-delivery', payload: fileEmail, idField: 'leadId' }]));
      const both = runWithCorrelation('batch-request-b', () =>
        outbox.jobsForNewRow([
          { name: 'email.file-delivery', payload: fileEmail, idField: 'leadId' },
          { name: 'webhook.deliver', payload: delivery, idField: 'leadId', timeField: 'createdAt' },
        ]),
      );
      expect(outbox.jobsForNewRow([])).toBeNull();
      const created = await outbox.writeWithJobs<{ id: number; name: string }>({
        text: (recordJobs) => `with input as (select * from unnest($1::text[], $2::text[]) as t(name, jobs)),
           created as (insert into public.batch_things (name) select name from input returning id, name),
           rows as (select c.id, input.jobs::jsonb as jobs from created c join input using (name)),
           ${recordJobs('rows', 'id', 'jobs')}
         select id, name from created order by name`,
        values: [['a', 'b', 'c'], [file, both, null]],
      });
      const id = (name: string) => created.find((c) => c.name === name)!.id;
      const deadline = Date.now() + 15_000;
      let mine: { name: string; payload: unknown; correlationId: string }[] = [];
      const webhooks = new Queue(QueueName.Webhooks, { connection: { url: redis.url }, prefix: `${config.redisPrefix}bull` });
      try {
        while (mine.length < 3 && Date.now() < deadline) {
          const all = [...(await queue.getJobs(['waiting', 'delayed', 'active', 'completed'])), ...(await webhooks.getJobs(['waiting', 'delayed', 'active', 'completed']))];
          // The file e-mails of one pass are relayed together too: each read here as the job recorded.
          mine = [...recordedJobs(all, 'email.file-delivery'), ...all.filter((j) => j.name === 'webhook.deliver-many')]
            .filter((j) => String(j.data.meta.correlationId).startsWith('batch-request-'))
            .map((j) => ({ name: j.name, payload: j.data.payload, correlationId: j.data.meta.correlationId }));
          if (mine.length < 3) await new Promise((r) => setTimeout(r, 100));
        }
      } finally {
        await webhooks.close();
      }
      expect(mine.sort((x, y) => `${x.name}${JSON.stringify(x.payload)}`.localeCompare(`${y.name}${JSON.stringify(y.payload)}`))).toEqual([
        { name: 'email.file-delivery', payload: { ...fileEmail, leadId: id('a') }, correlationId: 'batch-request-a' },
        { name: 'email.file-delivery', payload: { ...fileEmail, leadId: id('b') }, correlationId: 'batch-request-b' },
        // Relayed together with the other leads' deliveries of the pass (here none), each with its request's id.
        {
          name: 'webhook.deliver-many',
          payload: { v: 1, jobs: [{ payload: { ...delivery, leadId: id('b'), createdAt: expect.any(String) }, correlationId: 'batch-request-b' }] },
          correlationId: 'batch-request-b',
        },
      ]);
      expect(() => outbox.jobsForNewRow([{ name: 'webhook.deliver', payload: { v: 1 }, idField: 'leadId' }])).toThrow(); // no page
      await expect(outbox.writeWithJobs({ text: (recordJobs) => `with ${recordJobs('rows', 'id', 'jobs; drop table x')} select 1`, values: [] })).rejects.toThrow(
        'Unsafe SQL identifier',
      );
    }));

  it('refuses to record a payload that breaks the job contract', () => {
    const outbox = app.get(Outbox);
    const em = app.get(EntityManager).fork();
    expect(() => outbox.record(em, 'email.verification', { v: 1, to: recipient(-1), sealedToken: '' } as never)).toThrow();
  });

  it('drains a backlog bigger than one relay batch from the wake-up of its commit, without waiting for polls', () =>
    withoutPolling(async () => {
      const outbox = app.get(Outbox);
      await app.get(EntityManager).fork().transactional(async (tx) => {
        for (let i = 0; i < 1_200; i += 1) outbox.record(tx, 'email.verification', { v: 1, to: recipient(i + 1), sealedToken: `backlog-${i}` });
      });
      const deadline = Date.now() + 20_000;
      while ((await outboxRows()) > 0 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50));
      expect(await outboxRows()).toBe(0);
      expect((await queuedTokens()).filter((t) => t.startsWith('backlog-'))).toHaveLength(1_200);
    }));

  it('moves jobs committed while a pass runs with a later pass of its own, without waiting for polls', () =>
    withoutPolling(async () => {
      const outbox = app.get(Outbox);
      const record = (token: string) =>
        app.get(EntityManager).fork().transactional(async (tx) => {
          outbox.record(tx, 'email.verification', { v: 1, to: recipient(7), sealedToken: token });
        });
      await record('first'); // a pass starts at once with the first job
      // Committed while that pass runs: these wait for the next pass, which must come by itself.
      for (let i = 0; i < 5; i += 1) await record(`during-${i}`);
      const deadline = Date.now() + 10_000;
      while ((await outboxRows()) > 0 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 20));
      expect(await outboxRows()).toBe(0);
      expect(await queuedTokens()).toEqual(expect.arrayContaining(['first', 'during-0', 'during-1', 'during-2', 'during-3', 'during-4']));
    }));

  it('applies a job in process where asked: in the transaction (a failure undoes the change), or after a flush that committed alone (a failure is only logged)', async () => {
    const outbox = app.get(Outbox);
    const seen: string[] = [];
    let fail = false;
    outbox.applyHere('email.password-reset', async (em, payload) => {
      const userId = payload.to.userId;
      seen.push(`${userId}:${em.getTransactionContext() ? 'in transaction' : 'committed'}`);
      if (fail) throw new Error('read model down');
      return () => {
        seen.push(`${userId}:after commit`);
      };
    });
    const reset = (userId: number) => ({ v: 1 as const, to: recipient(userId), sealedToken: 'sealed' });
    const em = app.get(EntityManager).fork();

    await em.transactional(async (tx) => {
      outbox.record(tx, 'email.password-reset', reset(1));
      await tx.flush();
      expect(seen).toEqual(['1:in transaction']);
    });
    expect(seen).toEqual(['1:in transaction', '1:after commit']);
    outbox.record(em, 'email.password-reset', reset(2));
    await em.flush();
    expect(seen.slice(2)).toEqual(['2:committed', '2:after commit']);

    fail = true;
    await expect(em.fork().transactional(async (tx) => outbox.record(tx, 'email.password-reset', reset(3)))).rejects.toThrow('read model down');
    const alone = em.fork();
    outbox.record(alone, 'email.password-reset', reset(4));
    await expect(alone.flush()).resolves.toBeUndefined();

    // The jobs still reach the queue for the other processes, but not the one whose change was undone.
    const relayed = async () =>
      (await queue.getJobs(['waiting', 'active', 'completed', 'delayed']))
        .filter((job) => job?.name === 'email.password-reset')
        .map((job) => (job.data.payload as { to: { userId: number } }).to.userId)
        .sort();
    const deadline = Date.now() + 10_000;
    while ((await relayed()).length < 3 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 100));
    expect(await relayed()).toEqual([1, 2, 4]);
  });
});

/** An account e-mail's recipient, as identity records it. */
function recipient(userId: number) {
  return { userId, email: `user${Math.abs(userId)}@example.com`, username: `user${Math.abs(userId)}` };
}
