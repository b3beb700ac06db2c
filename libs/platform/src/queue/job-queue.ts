import { Injectable, OnApplicationShutdown } from '@nestjs/common';
import { ModuleRef } from '@nestjs/core';
import { getQueueToken } from '@nestjs/bullmq';
import type { Queue } from 'bullmq';
import { JOBS, QUEUE_SETTINGS, type JobEnvelope, type JobName, type JobPayload, QueueName } from '@plink/contracts';

/** Adds typed jobs to BullMQ. Use {@link Outbox} instead when the job follows a database change. */
@Injectable()
export class JobQueue implements OnApplicationShutdown {
  constructor(private readonly moduleRef: ModuleRef) {}

  queue(name: QueueName): Queue {
    return this.moduleRef.get<Queue>(getQueueToken(name), { strict: false });
  }

  /** Adds a job; `jobId` makes the add idempotent (an existing id is not added twice). */
  async add<N extends JobName>(name: N, envelope: JobEnvelope<N>, jobId?: string): Promise<void> {
    const job = JOBS[name];
    const settings = QUEUE_SETTINGS[job.queue];
    await this.queue(job.queue).add(name, envelope, {
      jobId,
      attempts: settings.attempts,
      backoff: { type: 'exponential', delay: settings.backoffDelayMs },
      removeOnComplete: settings.keepCompleted,
      removeOnFail: settings.keepFailed,
    });
  }

  async onApplicationShutdown() {
    await Promise.all(Object.values(QueueName).map((q) => this.queue(q).close().catch(() => undefined)));
  }
}

export type { JobPayload };
