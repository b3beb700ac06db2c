import { Module } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { Processor } from '@nestjs/bullmq';
import type { INestApplicationContext } from '@nestjs/common';
import { QUEUE_SETTINGS, QueueName, jobsOfQueue } from '@plink/contracts';
import { createTestEnvironment, type TestEnvironment } from '@plink/testing';
import { loadConfig, type AppConfig } from '@plink/config';
import { PlatformModule } from '../platform.module';
import { ContractWorker, type JobHandlers } from '@plink/queue';
import { HealthService } from './health.service';

@Processor(QueueName.Uploads, { concurrency: QUEUE_SETTINGS[QueueName.Uploads].concurrency })
class IdleUploadsWorker extends ContractWorker<QueueName.Uploads> {
  protected readonly queueName = QueueName.Uploads;
  // Every job of the queue, doing nothing (this test never adds one).
  protected readonly handlers = Object.fromEntries(jobsOfQueue(QueueName.Uploads).map((name) => [name, async () => undefined])) as unknown as JobHandlers<QueueName.Uploads>;
}

describe('health (readiness on @nestjs/terminus)', () => {
  let env: TestEnvironment;
  let config: AppConfig;
  let app: INestApplicationContext | undefined;

  beforeAll(async () => {
    env = await createTestEnvironment();
    config = loadConfig(env.vars);
  });

  afterAll(async () => {
    await app?.close();
    await env?.cleanup();
  });

  it('is ready when PostgreSQL, Redis and the queues this process serves answer, and says which one does not', async () => {
    @Module({ imports: [PlatformModule.forRoot({ config, schemas: [] })], providers: [IdleUploadsWorker] })
    class WorkerModule {}
    app = await NestFactory.createApplicationContext(WorkerModule, { logger: false });
    await app.init();
    const health = app.get(HealthService);

    // The worker connects in the background: ready within a few seconds of the start.
    let report = await health.report('test');
    for (let i = 0; i < 50 && report.status !== 'ok'; i++) {
      await new Promise((r) => setTimeout(r, 100));
      report = await health.report('test');
    }
    expect(report).toMatchObject({
      status: 'ok',
      service: 'test',
      checks: { database: 'up', redis: 'up', queues: 'up' },
      details: { database: { status: 'up' }, redis: { status: 'up' }, queues: { status: 'up', producer: 'up', workers: { uploads: 'up' } } },
    });
    expect(health.live('test')).toMatchObject({ status: 'ok', service: 'test' });

    // A worker that stopped takes this process out of rotation, the other checks still up.
    await app.get(IdleUploadsWorker).worker.close();
    const stopped = await health.report('test');
    expect(stopped).toMatchObject({
      status: 'degraded',
      checks: { database: 'up', redis: 'up', queues: 'down' },
      details: { queues: { status: 'down', producer: 'up', workers: { uploads: 'worker not running' } } },
    });
  });
});
