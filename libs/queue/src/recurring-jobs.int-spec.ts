import { Module } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { Processor } from '@nestjs/bullmq';
import type { Job } from 'bullmq';
import { JOBS, QUEUE_SETTINGS, QueueName, jobsOfQueue } from '@plink/contracts';
import { createTestEnvironment, type TestEnvironment } from '@plink/testing';
import { ConfigModule, loadConfig, type AppConfig } from '@plink/config';
import { DatabaseModule } from '@plink/data';
import { RedisModule } from '@plink/redis';
import { QueueModule } from './queue.module';
import { ContractWorker, type JobHandlers } from './contract-worker';
import { JobQueue } from './job-queue';
import { RecurringJobs } from './recurring-jobs';

const ran: { name: string; payload: unknown }[] = [];

/** A pages worker whose handlers only note what ran. */
@Processor(QueueName.Pages, { concurrency: QUEUE_SETTINGS[QueueName.Pages].concurrency })
class NotingPagesWorker extends ContractWorker<QueueName.Pages> {
  protected readonly queueName = QueueName.Pages;
  protected readonly handlers = Object.fromEntries(
    jobsOfQueue(QueueName.Pages).map((name) => [name, async (payload: unknown, job: Job) => void ran.push({ name: job.name, payload })]),
  ) as JobHandlers<QueueName.Pages>;
}

describe('repeating jobs', () => {
  let env: TestEnvironment;
  let config: AppConfig;

  beforeAll(async () => {
    env = await createTestEnvironment();
    config = loadConfig(env.vars);
  });

  afterAll(async () => {
    await env?.cleanup();
  });

  async function boot(providers: (typeof NotingPagesWorker)[]) {
    @Module({ imports: [ConfigModule.forRoot(config), DatabaseModule.forRoot([]), RedisModule, QueueModule], providers })
    class ProcessModule {}
    const app = await NestFactory.createApplicationContext(ProcessModule, { logger: false });
    await app.init();
    return app;
  }

  async function schedulerCounts(app: Awaited<ReturnType<typeof boot>>) {
    const jobs = app.get(JobQueue);
    const counts: Partial<Record<QueueName, number>> = {};
    for (const queue of Object.values(QueueName)) counts[queue] = await jobs.queue(queue).getJobSchedulersCount();
    return counts;
  }

  it('are scheduled, as their contract declares, by the workers that serve their queue and by no other process', async () => {
    // A process that serves no queue (the gateway without workers) schedules nothing.
    const bare = await boot([]);
    try {
      await bare.get(RecurringJobs).schedule();
      expect(Object.values(await schedulerCounts(bare)).every((n) => n === 0)).toBe(true);
    } finally {
      await bare.close();
    }

    // A pages worker schedules the repeating jobs its queue's contract declares (the view flush, the Trash's
    // purge), and no repeating job of a queue it does not serve (the uploads sweep, billing's and the webhooks' jobs).
    const first = await boot([NotingPagesWorker]);
    const second = await boot([NotingPagesWorker]);
    try {
      await second.get(RecurringJobs).schedule();
      const pages = first.get(JobQueue).queue(QueueName.Pages);
      const flush = await pages.getJobScheduler('pages.flush-views');
      expect(flush).toMatchObject({ every: 2_000, template: { opts: { attempts: 1 } } });
      expect(JOBS['pages.flush-views'].repeat).toMatchObject({ every: flush!.every });
      expect(await pages.getJobScheduler('pages.purge-trash')).toMatchObject({ pattern: JOBS['pages.purge-trash'].repeat.pattern });
      // Two workers of the queue started: still one schedule of each.
      expect(await schedulerCounts(first)).toEqual({ ...Object.fromEntries(Object.values(QueueName).map((q) => [q, 0])), [QueueName.Pages]: 2 });

      // And it runs: the worker is handed the job with its contract's payload.
      const deadline = Date.now() + 10_000;
      while (!ran.some((r) => r.name === 'pages.flush-views') && Date.now() < deadline) await new Promise((r) => setTimeout(r, 100));
      expect(ran.find((r) => r.name === 'pages.flush-views')).toEqual({ name: 'pages.flush-views', payload: { v: 1 } });
    } finally {
      await second.close();
      await first.close();
    }
  });
});
