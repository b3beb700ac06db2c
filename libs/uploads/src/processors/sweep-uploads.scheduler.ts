import { Injectable } from '@nestjs/common';
import { QUEUE_SETTINGS, QueueName } from '@plink/contracts';
import { JobQueue, RecurringJobScheduler, type RecurringJob } from '@plink/platform';

/** The sweep runs at 00:00, 06:00, 12:00 and 18:00 UTC. */
export const SWEEP_UPLOADS_PATTERN = '0 */6 * * *';
export const SWEEP_UPLOADS_SCHEDULER_ID = 'pages.sweep-uploads';

const settings = QUEUE_SETTINGS[QueueName.Uploads];

/**
 * Keeps the repeatable 'pages.sweep-uploads' job scheduled. A cron pattern in UTC rather than an interval,
 * so restarts and replicas in other time zones neither run it at once nor shift it.
 */
@Injectable()
export class SweepUploadsScheduler extends RecurringJobScheduler<'pages.sweep-uploads'> {
  protected readonly job: RecurringJob<'pages.sweep-uploads'> = {
    name: SWEEP_UPLOADS_SCHEDULER_ID,
    payload: { v: 1 },
    repeat: { pattern: SWEEP_UPLOADS_PATTERN, tz: 'UTC' },
    // A failed sweep (store or database away) is tried a few times; the next one comes in 6 hours anyway.
    opts: {
      attempts: 4,
      backoff: { type: 'exponential', delay: settings.backoffDelayMs * 12 },
      removeOnComplete: settings.keepCompleted,
      removeOnFail: settings.keepFailed,
    },
    label: 'the uploads sweep',
  };

  constructor(jobs: JobQueue) {
    super(jobs);
  }
}
