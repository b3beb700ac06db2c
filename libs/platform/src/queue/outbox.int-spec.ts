import { Module } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import type { INestApplicationContext } from '@nestjs/common';
import { EntityManager, MikroORM } from '@mikro-orm/postgresql';
import { Queue } from 'bullmq';
import { QueueName } from '@plink/contracts';
import { ControlledRedis, createTestEnvironment, type TestEnvironment } from '@plink/testing';
import { loadConfig, type AppConfig } from '../config/config.schema';
import { PlatformModule } from '../platform.module';
import { runWithCorrelation } from '../logging/logger';
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
    @Module({ imports: [PlatformModule.forRoot({ config, schemas: [] })] })
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
      outbox.record(tx, 'email.verification', { v: 1, userId: 42, sealedToken: 'sealed' });
    });
    outbox.kick();
    await expect(outbox.relayOnce()).resolves.toBe(0);
    expect(await outboxRows()).toBe(1);

    await redis.start();
    const deadline = Date.now() + 30_000;
    while ((await outboxRows()) > 0 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 200));
    expect(await outboxRows()).toBe(0);

    const jobs = await queue.getJobs(['waiting', 'active', 'completed', 'delayed']);
    expect(jobs).toHaveLength(1);
    expect(jobs[0].name).toBe('email.verification');
    expect(jobs[0].data.payload).toEqual({ v: 1, userId: 42, sealedToken: 'sealed' });
    expect(jobs[0].data.meta.correlationId).toEqual(expect.any(String));
  }, 60_000);

  it('records nothing when the transaction rolls back', async () => {
    const outbox = app.get(Outbox);
    const em = app.get(EntityManager).fork();
    await expect(
      em.transactional(async (tx) => {
        outbox.record(tx, 'email.password-reset', { v: 1, userId: 7, sealedToken: 'sealed' });
        await tx.flush();
        throw new Error('the change failed');
      }),
    ).rejects.toThrow('the change failed');
    expect(await outboxRows()).toBe(0);
  });

  it('records jobs inside the caller\'s own statement, with the id that statement creates', async () => {
    const outbox = app.get(Outbox);
    const em = app.get(EntityManager).fork();
    await em.execute('create table if not exists public.things (id serial primary key, name text)');
    const jobs = outbox.rowsFromStatement('created', 'id', [{ name: 'email.file-delivery', payload: { v: 1 }, idField: 'leadId' }]);
    const created: { id: number }[] = await em.execute(
      `with created as (insert into public.things (name) values (?) returning id), jobs as (${jobs.sql}) select id from created`,
      ['thing', ...jobs.params],
    );
    // The relay moves the row to BullMQ (it runs in this app): find the job there.
    const deadline = Date.now() + 15_000;
    let job;
    while (!job && Date.now() < deadline) {
      job = (await queue.getJobs(['waiting', 'delayed', 'active', 'completed'])).find((j) => j.name === 'email.file-delivery');
      if (!job) await new Promise((r) => setTimeout(r, 100));
    }
    expect(job?.data.payload).toEqual({ v: 1, leadId: created[0].id });
    expect(() => outbox.rowsFromStatement('created', 'id', [{ name: 'email.file-delivery', payload: { v: 2 }, idField: 'leadId' }])).toThrow();
    expect(() => outbox.rowsFromStatement('x; drop table y', 'id', [])).toThrow('Unsafe SQL identifier');
  });

  it('records per-row jobs for a statement that writes rows of several requests at once', async () => {
    const outbox = app.get(Outbox);
    const em = app.get(EntityManager).fork();
    await em.execute('create table if not exists public.batch_things (id serial primary key, name text)');
    // Each request's jobs carry its own correlation id.
    const file = runWithCorrelation('batch-request-a', () => outbox.deferredJobs([{ name: 'email.file-delivery', payload: { v: 1 }, idField: 'leadId' }]));
    const both = runWithCorrelation('batch-request-b', () =>
      outbox.deferredJobs([
        { name: 'email.file-delivery', payload: { v: 1 }, idField: 'leadId' },
        { name: 'webhook.deliver', payload: { v: 1, pageId: 9 }, idField: 'leadId' },
      ]),
    );
    expect(outbox.deferredJobs([])).toBeNull();
    const created: { id: number; name: string }[] = await em.execute(
      `with input as (select * from jsonb_to_recordset(?::jsonb) as t(name text, jobs jsonb)),
         created as (insert into public.batch_things (name) select name from input returning id, name),
         rows as (select c.id, input.jobs from created c join input using (name)),
         jobs as (${outbox.rowsFromJobsColumn('rows', 'id', 'jobs')})
       select id, name from created order by name`,
      [JSON.stringify([file, both, null].map((jobs, i) => ({ name: 'abc'[i], jobs: jobs === null ? null : JSON.parse(jobs) })))],
    );
    const id = (name: string) => created.find((c) => c.name === name)!.id;
    const deadline = Date.now() + 15_000;
    let mine: { name: string; payload: unknown; correlationId: string }[] = [];
    while (mine.length < 3 && Date.now() < deadline) {
      const jobs = await queue.getJobs(['waiting', 'delayed', 'active', 'completed']);
      const webhooks = await new Queue(QueueName.Webhooks, { connection: { url: redis.url }, prefix: `${config.redisPrefix}bull` });
      const all = [...jobs, ...(await webhooks.getJobs(['waiting', 'delayed', 'active', 'completed']))];
      await webhooks.close();
      mine = all
        .filter((j) => String(j.data.meta.correlationId).startsWith('batch-request-'))
        .map((j) => ({ name: j.name, payload: j.data.payload, correlationId: j.data.meta.correlationId }));
      if (mine.length < 3) await new Promise((r) => setTimeout(r, 100));
    }
    expect(mine.sort((x, y) => `${x.name}${JSON.stringify(x.payload)}`.localeCompare(`${y.name}${JSON.stringify(y.payload)}`))).toEqual([
      { name: 'email.file-delivery', payload: { v: 1, leadId: id('a') }, correlationId: 'batch-request-a' },
      { name: 'email.file-delivery', payload: { v: 1, leadId: id('b') }, correlationId: 'batch-request-b' },
      { name: 'webhook.deliver', payload: { v: 1, leadId: id('b'), pageId: 9 }, correlationId: 'batch-request-b' },
    ]);
    expect(() => outbox.deferredJobs([{ name: 'webhook.deliver', payload: { v: 1 }, idField: 'leadId' }])).toThrow(); // no pageId
    expect(() => outbox.rowsFromJobsColumn('rows', 'id', 'jobs; drop table x')).toThrow('Unsafe SQL identifier');
  });

  it('refuses to record a payload that breaks the job contract', () => {
    const outbox = app.get(Outbox);
    const em = app.get(EntityManager).fork();
    expect(() => outbox.record(em, 'email.verification', { v: 1, userId: -1, sealedToken: '' } as never)).toThrow();
  });

  it('drains a backlog bigger than one relay batch from a single kick, without waiting for polls', async () => {
    const outbox = app.get(Outbox);
    // No polling in this test: only the kick below may move the jobs.
    clearInterval((outbox as unknown as { timer: NodeJS.Timeout }).timer);
    try {
      await app.get(EntityManager).fork().transactional(async (tx) => {
        for (let i = 0; i < 1_200; i += 1) outbox.record(tx, 'email.verification', { v: 1, userId: i + 1, sealedToken: `backlog-${i}` });
      });
      expect(await outboxRows()).toBe(1_200);
      outbox.kick();
      const deadline = Date.now() + 20_000;
      while ((await outboxRows()) > 0 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50));
      expect(await outboxRows()).toBe(0);
    } finally {
      outbox.onApplicationBootstrap(); // polling again
    }
  });

  it('moves jobs committed while a pass runs with a later pass of its own, without waiting for polls', async () => {
    const outbox = app.get(Outbox);
    clearInterval((outbox as unknown as { timer: NodeJS.Timeout }).timer);
    const record = (token: string) =>
      app.get(EntityManager).fork().transactional(async (tx) => {
        outbox.record(tx, 'email.verification', { v: 1, userId: 7, sealedToken: token });
      });
    try {
      await record('first');
      outbox.kick(); // a pass starts at once with the first job
      // Committed and kicked while that pass runs: these wait for the next pass, which must come by itself.
      for (let i = 0; i < 5; i += 1) {
        await record(`during-${i}`);
        outbox.kick();
      }
      const deadline = Date.now() + 10_000;
      while ((await outboxRows()) > 0 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 20));
      expect(await outboxRows()).toBe(0);
      const tokens = (await queue.getJobs(['waiting', 'active', 'completed', 'delayed'])).map((j) => j.data.payload.sealedToken);
      expect(tokens).toEqual(expect.arrayContaining(['first', 'during-0', 'during-1', 'during-2', 'during-3', 'during-4']));
    } finally {
      outbox.onApplicationBootstrap();
    }
  });
});
