import { Injectable, OnApplicationBootstrap, OnApplicationShutdown } from '@nestjs/common';
import { QUEUE_SETTINGS, QueueName, type JobEnvelope } from '@plink/contracts';
import { JobQueue, getLogger } from '@plink/platform';

/** The sweep runs at 00:00, 06:00, 12:00 and 18:00 UTC. */
export const SWEEP_UPLOADS_PATTERN = '0 */6 * * *';
export const SWEEP_UPLOADS_SCHEDULER_ID = 'pages.sweep-uploads';
const RETRY_MS = 5_000;

/**
 * Keeps the repeatable 'pages.sweep-uploads' job scheduled (a BullMQ job scheduler under a fixed id: one
 * schedule however many pages workers start; upserting it again at each boot changes nothing). A cron
 * pattern in UTC rather than an interval, so restarts and replicas in other time zones neither run it at
 * once nor shift it. Retries until Redis answers, like the view flush's scheduler.
 */
@Injectable()
export class SweepUploadsScheduler implements OnApplicationBootstrap, OnApplicationShutdown {
  private retry?: NodeJS.Timeout;
  private stopped = false;

  constructor(private readonly jobs: JobQueue) {}

  onApplicationBootstrap() {
    void this.schedule();
  }

  async schedule(): Promise<void> {
    if (this.stopped) return;
    const queue = this.jobs.queue(QueueName.Uploads);
    const settings = QUEUE_SETTINGS[QueueName.Uploads];
    const envelope: JobEnvelope<'pages.sweep-uploads'> = {
      payload: { v: 1 },
      meta: { correlationId: SWEEP_UPLOADS_SCHEDULER_ID, recordedAt: new Date().toISOString() },
    };
    try {
      await queue.waitUntilReady();
      await queue.upsertJobScheduler(
        SWEEP_UPLOADS_SCHEDULER_ID,
        { pattern: SWEEP_UPLOADS_PATTERN, tz: 'UTC' },
        {
          name: 'pages.sweep-uploads',
          data: envelope,
          // A failed sweep (store or database away) is tried a few times; the next one comes in 6 hours anyway.
          opts: {
            attempts: 4,
            backoff: { type: 'exponential', delay: settings.backoffDelayMs * 12 },
            removeOnComplete: settings.keepCompleted,
            removeOnFail: settings.keepFailed,
          },
        },
      );
    } catch (err) {
      getLogger().warn({ err: { message: (err as Error).message } }, 'pages: could not schedule the uploads sweep yet; retrying');
      this.retry = setTimeout(() => void this.schedule(), RETRY_MS);
      this.retry.unref();
    }
  }

  onApplicationShutdown() {
    this.stopped = true;
    if (this.retry) clearTimeout(this.retry);
  }
}
