import { Injectable, OnApplicationBootstrap, OnApplicationShutdown } from '@nestjs/common';
import { JOBS, type JobEnvelope, type JobName, type JobPayload } from '@plink/contracts';
import type { JobSchedulerTemplateOptions, RepeatOptions } from 'bullmq';
import { warnThrottled } from '../logging/throttled-log';
import { JobQueue } from './job-queue';

const RETRY_MS = 5_000;

/** One recurring job: its name (also the scheduler's id), payload, timing and job options. */
export interface RecurringJob<N extends JobName> {
  name: N;
  payload: JobPayload<N>;
  repeat: Omit<RepeatOptions, 'key'>;
  opts: JobSchedulerTemplateOptions;
  /** What the job does, for the log line while Redis is not answering ('the view flush'). */
  label: string;
}

/**
 * Keeps a recurring job scheduled: a BullMQ job scheduler under the job's name as a fixed id, so there is
 * one schedule however many workers start, and upserting it again at each boot changes nothing. Retries
 * every 5 s until Redis answers. A service's scheduler extends this and says which job.
 */
@Injectable()
export abstract class RecurringJobScheduler<N extends JobName> implements OnApplicationBootstrap, OnApplicationShutdown {
  protected abstract readonly job: RecurringJob<N>;
  private retry?: NodeJS.Timeout;
  private stopped = false;

  constructor(private readonly jobs: JobQueue) {}

  onApplicationBootstrap() {
    void this.schedule();
  }

  async schedule(): Promise<void> {
    if (this.stopped) return;
    const { name, payload, repeat, opts, label } = this.job;
    const queue = this.jobs.queue(JOBS[name].queue);
    const envelope: JobEnvelope<N> = { payload, meta: { correlationId: name, recordedAt: new Date().toISOString() } };
    try {
      await queue.waitUntilReady();
      await queue.upsertJobScheduler(name, repeat, { name, data: envelope, opts });
    } catch (err) {
      warnThrottled(`scheduler:${name}`, err, `could not schedule ${label} yet; retrying`);
      this.retry = setTimeout(() => void this.schedule(), RETRY_MS);
      this.retry.unref();
    }
  }

  onApplicationShutdown() {
    this.stopped = true;
    if (this.retry) clearTimeout(this.retry);
  }
}
