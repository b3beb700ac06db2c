import { Injectable, OnApplicationShutdown, OnModuleInit } from '@nestjs/common';
import { ModuleRef } from '@nestjs/core';
import { getQueueToken } from '@nestjs/bullmq';
import type { Queue } from 'bullmq';
import { getLogger } from '../logging/logger';
import { JOBS, QUEUE_SETTINGS, type JobEnvelope, type JobName, type JobPayload, QueueName } from '@plink/contracts';

/** Adds typed jobs to BullMQ. Use {@link Outbox} instead when the job follows a database change. */
@Injectable()
export class JobQueue implements OnModuleInit, OnApplicationShutdown {
  constructor(private readonly moduleRef: ModuleRef) {}

  onModuleInit() {
    for (const name of Object.values(QueueName)) {
      let last = 0;
      this.queue(name).on('error', (err) => {
        // Redis away: say so at most every 10 s; the outbox keeps what could not be queued.
        if (Date.now() - last < 10_000) return;
        last = Date.now();
        getLogger().warn({ queue: name, err: { message: err.message } }, 'queue connection problem');
      });
    }
  }

  queue(name: QueueName): Queue {
    return this.moduleRef.get<Queue>(getQueueToken(name), { strict: false });
  }

  /** Adds a job; `jobId` makes the add idempotent (an existing id is not added twice). */
  async add<N extends JobName>(name: N, envelope: JobEnvelope<N>, jobId?: string): Promise<void> {
    await this.queue(JOBS[name].queue).add(name, envelope, jobOptions(name, jobId));
  }

  /** Adds many jobs with one round trip per queue (`jobId`s make it idempotent, as with {@link add}). */
  async addMany(jobs: { name: JobName; envelope: JobEnvelope; jobId?: string }[]): Promise<void> {
    const byQueue = new Map<QueueName, typeof jobs>();
    for (const job of jobs) {
      const queue = JOBS[job.name].queue;
      const list = byQueue.get(queue);
      if (list) list.push(job);
      else byQueue.set(queue, [job]);
    }
    await Promise.all(
      [...byQueue].map(([queue, list]) =>
        this.queue(queue).addBulk(list.map((j) => ({ name: j.name, data: j.envelope, opts: jobOptions(j.name, j.jobId) }))),
      ),
    );
  }

  async onApplicationShutdown() {
    await Promise.all(Object.values(QueueName).map((q) => this.queue(q).close().catch(() => undefined)));
  }
}

function jobOptions(name: JobName, jobId?: string) {
  const settings = QUEUE_SETTINGS[JOBS[name].queue];
  return {
    jobId,
    attempts: settings.attempts,
    backoff: { type: 'exponential', delay: settings.backoffDelayMs },
    removeOnComplete: settings.keepCompleted,
    removeOnFail: settings.keepFailed,
  };
}

export type { JobPayload };
