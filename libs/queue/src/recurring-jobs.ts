import { Injectable, OnApplicationBootstrap, OnApplicationShutdown } from '@nestjs/common';
import { JOBS, QUEUE_SETTINGS, isJobName, jobsOfQueue, type JobEnvelope, type JobName, type JobRepeat } from '@plink/contracts';
import type { JobSchedulerTemplateOptions, RepeatOptions } from 'bullmq';
import { warnThrottled } from '@plink/observability';
import { JobHandlerRegistry } from './contract-worker';
import { JobQueue } from './job-queue';

const RETRY_MS = 5_000;

function repeatOf(name: JobName): JobRepeat | undefined {
  return (JOBS[name] as { repeat?: JobRepeat }).repeat;
}

/**
 * Keeps scheduled the jobs whose contract declares a `repeat`, for the queues this process's workers serve (a
 * process that serves none, the gateway without workers, schedules nothing). Each is a BullMQ job scheduler
 * under the job's name as a fixed id, so there is one schedule however many workers start, and upserting it
 * again at each boot changes nothing. One that Redis did not take is tried again every 5 s.
 */
@Injectable()
export class RecurringJobs implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly retries = new Map<JobName, NodeJS.Timeout>();
  private stopped = false;

  constructor(
    private readonly jobs: JobQueue,
    private readonly registry: JobHandlerRegistry,
  ) {}

  /** The repeating jobs of the served queues; throws when one's contract would refuse the `{ v: 1 }` its runs carry. */
  private repeating(): JobName[] {
    // Events are copies of another service's fact, never scheduled: only the queue's own jobs may repeat.
    const names = this.registry.servedQueues().flatMap((queue) => jobsOfQueue(queue).filter((name): name is JobName => isJobName(name) && !!repeatOf(name)));
    const refused = names.filter((name) => !JOBS[name].schema.safeParse({ v: 1 }).success);
    if (refused.length > 0) throw new Error(`Repeating jobs must take the payload { v: 1 }: ${refused.join(', ')}`);
    return names;
  }

  onApplicationBootstrap() {
    const names = this.repeating();
    for (const name of names) void this.scheduleJob(name);
  }

  /** Upserts every served repeating job's scheduler now (what each worker does at boot). */
  async schedule(): Promise<void> {
    await Promise.all(this.repeating().map((name) => this.scheduleJob(name)));
  }

  private async scheduleJob(name: JobName): Promise<void> {
    clearTimeout(this.retries.get(name));
    this.retries.delete(name);
    if (this.stopped) return;
    const declared = repeatOf(name)!;
    const settings = QUEUE_SETTINGS[JOBS[name].queue];
    const repeat: Omit<RepeatOptions, 'key'> = 'every' in declared ? { every: declared.every } : { pattern: declared.pattern, tz: 'UTC' };
    const opts: JobSchedulerTemplateOptions = {
      attempts: declared.attempts ?? settings.attempts,
      backoff: declared.backoff ?? { type: settings.backoffType ?? 'exponential', delay: settings.backoffDelayMs },
      removeOnComplete: declared.keepCompleted ?? settings.keepCompleted,
      removeOnFail: declared.keepFailed ?? settings.keepFailed,
    };
    const envelope: JobEnvelope = { payload: { v: 1 }, meta: { correlationId: name, recordedAt: new Date().toISOString() } };
    const queue = this.jobs.queue(JOBS[name].queue);
    try {
      await queue.waitUntilReady();
      await queue.upsertJobScheduler(name, repeat, { name, data: envelope, opts });
    } catch (err) {
      warnThrottled(`scheduler:${name}`, err, `could not schedule the repeating job "${name}" yet; retrying`);
      const retry = setTimeout(() => void this.scheduleJob(name), RETRY_MS);
      retry.unref();
      this.retries.set(name, retry);
    }
  }

  onApplicationShutdown() {
    this.stopped = true;
    for (const retry of this.retries.values()) clearTimeout(retry);
  }
}
