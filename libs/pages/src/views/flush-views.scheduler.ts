import { Injectable, OnApplicationBootstrap, OnApplicationShutdown } from '@nestjs/common';
import { QUEUE_SETTINGS, QueueName, type JobEnvelope } from '@plink/contracts';
import { JobQueue, getLogger } from '@plink/platform';

/** How often buffered views move into the database (with the 1 s in-process buffer: views show within ~3 s). */
export const FLUSH_VIEWS_EVERY_MS = 2_000;
const SCHEDULER_ID = 'pages.flush-views';
const RETRY_MS = 5_000;

/**
 * Keeps the repeatable 'pages.flush-views' job scheduled (BullMQ job scheduler: one schedule however many
 * pages workers start; upserting it again is harmless). Retries until Redis answers.
 */
@Injectable()
export class FlushViewsScheduler implements OnApplicationBootstrap, OnApplicationShutdown {
  private retry?: NodeJS.Timeout;
  private stopped = false;

  constructor(private readonly jobs: JobQueue) {}

  onApplicationBootstrap() {
    void this.schedule();
  }

  async schedule(): Promise<void> {
    if (this.stopped) return;
    const queue = this.jobs.queue(QueueName.Pages);
    const settings = QUEUE_SETTINGS[QueueName.Pages];
    const envelope: JobEnvelope<'pages.flush-views'> = {
      payload: { v: 1 },
      meta: { correlationId: SCHEDULER_ID, recordedAt: new Date().toISOString() },
    };
    try {
      await queue.waitUntilReady();
      await queue.upsertJobScheduler(
        SCHEDULER_ID,
        { every: FLUSH_VIEWS_EVERY_MS },
        {
          name: 'pages.flush-views',
          data: envelope,
          // The next run comes 2 s later anyway: no retries, few kept jobs.
          opts: { attempts: 1, removeOnComplete: settings.keepCompleted, removeOnFail: settings.keepFailed },
        },
      );
    } catch (err) {
      getLogger().warn({ err: { message: (err as Error).message } }, 'pages: could not schedule the view flush yet; retrying');
      this.retry = setTimeout(() => void this.schedule(), RETRY_MS);
      this.retry.unref();
    }
  }

  onApplicationShutdown() {
    this.stopped = true;
    if (this.retry) clearTimeout(this.retry);
  }
}
