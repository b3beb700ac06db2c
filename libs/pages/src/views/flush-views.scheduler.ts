import { Injectable } from '@nestjs/common';
import { QUEUE_SETTINGS, QueueName } from '@plink/contracts';
import { JobQueue, RecurringJobScheduler, type RecurringJob } from '@plink/platform';

/** How often buffered views move into the database (with the 1 s in-process buffer: views show within ~3 s). */
export const FLUSH_VIEWS_EVERY_MS = 2_000;

/** Keeps the repeatable 'pages.flush-views' job scheduled. */
@Injectable()
export class FlushViewsScheduler extends RecurringJobScheduler<'pages.flush-views'> {
  protected readonly job: RecurringJob<'pages.flush-views'> = {
    name: 'pages.flush-views',
    payload: { v: 1 },
    repeat: { every: FLUSH_VIEWS_EVERY_MS },
    // The next run comes 2 s later anyway: no retries, few kept jobs.
    opts: {
      attempts: 1,
      removeOnComplete: QUEUE_SETTINGS[QueueName.Pages].keepCompleted,
      removeOnFail: QUEUE_SETTINGS[QueueName.Pages].keepFailed,
    },
    label: 'the view flush',
  };

  constructor(jobs: JobQueue) {
    super(jobs);
  }
}
