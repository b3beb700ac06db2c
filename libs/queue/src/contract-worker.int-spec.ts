import { Module } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { Processor } from '@nestjs/bullmq';
import { Queue, type Job } from 'bullmq';
import { QUEUE_SETTINGS, QueueName, type JobPayload } from '@plink/contracts';
import { createTestEnvironment, type TestEnvironment } from '@plink/testing';
import { ConfigModule, loadConfig, type AppConfig } from '@plink/config';
import { DatabaseModule } from '@plink/data';
import { RedisModule } from '@plink/redis';
import { QueueModule } from './queue.module';
import { ContractWorker, JobHandlerRegistry, type JobHandlers } from './contract-worker';

const seen: { name: string; payload: unknown; attempt: number }[] = [];

@Processor(QueueName.Email, { concurrency: QUEUE_SETTINGS[QueueName.Email].concurrency })
class RecordingEmailWorker extends ContractWorker<QueueName.Email> {
  protected readonly queueName = QueueName.Email;
  protected readonly handlers: JobHandlers<QueueName.Email> = {
    'email.verification': async (payload: JobPayload<'email.verification'>, job: Job) => {
      seen.push({ name: job.name, payload, attempt: job.attemptsMade + 1 });
      if (payload.to.userId === 13 && job.attemptsMade < 1) throw new Error('flaky once');
    },
    'email.password-reset': async (payload, job) => {
      seen.push({ name: job.name, payload, attempt: job.attemptsMade + 1 });
    },
    'email.email-change-confirm': async (payload, job) => {
      seen.push({ name: job.name, payload, attempt: job.attemptsMade + 1 });
    },
    'email.email-change-notice': async (payload, job) => {
      seen.push({ name: job.name, payload, attempt: job.attemptsMade + 1 });
    },
    'email.account-export-ready': async (payload, job) => {
      seen.push({ name: job.name, payload, attempt: job.attemptsMade + 1 });
    },
    'email.account-deleted': async (payload, job) => {
      seen.push({ name: job.name, payload, attempt: job.attemptsMade + 1 });
    },
    'email.file-delivery': async (payload, job) => {
      seen.push({ name: job.name, payload, attempt: job.attemptsMade + 1 });
    },
    'email.file-delivery-many': async (payload, job) => {
      seen.push({ name: job.name, payload, attempt: job.attemptsMade + 1 });
    },
    'email.lead-confirmation': async (payload, job) => {
      seen.push({ name: job.name, payload, attempt: job.attemptsMade + 1 });
    },
    'email.page-under-attack': async (payload, job) => {
      seen.push({ name: job.name, payload, attempt: job.attemptsMade + 1 });
    },
    'email.pro-started': async (payload, job) => {
      seen.push({ name: job.name, payload, attempt: job.attemptsMade + 1 });
    },
    'email.pro-ended': async (payload, job) => {
      seen.push({ name: job.name, payload, attempt: job.attemptsMade + 1 });
    },
    'email.lead-removal-warning': async (payload, job) => {
      seen.push({ name: job.name, payload, attempt: job.attemptsMade + 1 });
    },
    'email.trial-ending': async (payload, job) => {
      seen.push({ name: job.name, payload, attempt: job.attemptsMade + 1 });
    },
    'email.payment-failed': async (payload, job) => {
      seen.push({ name: job.name, payload, attempt: job.attemptsMade + 1 });
    },
    'email.webhook-disabled': async (payload, job) => {
      seen.push({ name: job.name, payload, attempt: job.attemptsMade + 1 });
    },
  };
}

describe('contract workers', () => {
  let env: TestEnvironment;
  let config: AppConfig;

  beforeAll(async () => {
    env = await createTestEnvironment();
    config = loadConfig(env.vars);
  });

  afterAll(async () => {
    await env?.cleanup();
  });

  it('refuses to boot when a job of a served queue has no handler, or two', () => {
    const registry = new JobHandlerRegistry();
    registry.register(QueueName.Email, 'A', ['email.verification']);
    expect(() => registry.verify()).toThrow(/job "email.password-reset" on queue "email" has no handler/);
    registry.register(QueueName.Email, 'B', ['email.verification', 'email.password-reset']);
    expect(() => registry.verify()).toThrow(/job "email.verification" on queue "email" has 2 handlers \(A, B\)/);
    expect(() => new JobHandlerRegistry().register(QueueName.Email, 'C', ['pages.nothing'])).toThrow(/neither a job of queue "email" nor an event it subscribes to/);
  });

  it('runs typed handlers, drops payloads that break the contract, and retries a failure', async () => {
    @Module({ imports: [ConfigModule.forRoot(config), DatabaseModule.forRoot([]), RedisModule, QueueModule], providers: [RecordingEmailWorker] })
    class WorkerModule {}
    const app = await NestFactory.createApplicationContext(WorkerModule, { logger: false });
    await app.init();
    const queue = new Queue(QueueName.Email, { connection: { url: config.redisUrl }, prefix: `${config.redisPrefix}bull` });
    try {
      const meta = { correlationId: 'test-correlation', recordedAt: new Date().toISOString() };
      await queue.add('email.verification', { payload: { v: 1, to: recipient(1), sealedToken: 's' }, meta });
      const bad = await queue.add('email.verification', { payload: { v: 1, to: { userId: 'one' } }, meta });
      const unknown = await queue.add('email.unknown', { payload: {}, meta });
      await queue.add('email.verification', { payload: { v: 1, to: recipient(13), sealedToken: 's' }, meta }, { attempts: 3, backoff: { type: 'fixed', delay: 50 } });
      const deadline = Date.now() + 15_000;
      while (seen.filter((s) => (s.payload as { to: { userId: number } }).to.userId === 13).length < 2 && Date.now() < deadline) {
        await new Promise((r) => setTimeout(r, 50));
      }
      expect(seen.find((s) => (s.payload as { to: { userId: number } }).to.userId === 1)).toMatchObject({ name: 'email.verification' });
      expect(seen.filter((s) => (s.payload as { to: { userId: number } }).to.userId === 13).map((s) => s.attempt)).toEqual([1, 2]);
      expect(seen.some((s) => (s.payload as { to?: { userId: unknown } }).to?.userId === 'one')).toBe(false);
      expect(await (await queue.getJob(bad.id!))!.getState()).toBe('failed');
      expect((await queue.getJob(bad.id!))!.attemptsMade).toBe(1); // not retried: it can never succeed
      expect(await (await queue.getJob(unknown.id!))!.getState()).toBe('failed');
    } finally {
      await queue.close();
      await app.close();
    }
  });
});

/** An account e-mail's recipient, as identity records it. */
function recipient(userId: number) {
  return { userId, email: `user${Math.abs(userId)}@example.com`, username: `user${Math.abs(userId)}` };
}
