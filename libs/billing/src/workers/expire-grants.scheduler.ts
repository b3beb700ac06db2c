import { Injectable } from '@nestjs/common';
import { QUEUE_SETTINGS, QueueName } from '@plink/contracts';
import { JobQueue, RecurringJobScheduler, type RecurringJob } from '@plink/platform';

/** Every 10 minutes: a grant given "for N days" ends within 10 minutes of its time. */
export const EXPIRE_GRANTS_PATTERN = '*/10 * * * *';

const settings = QUEUE_SETTINGS[QueueName.Billing];

/** Keeps the repeatable 'billing.expire-grants' job scheduled (one scheduler id, whatever the replicas). */
@Injectable()
export class ExpireGrantsScheduler extends RecurringJobScheduler<'billing.expire-grants'> {
  protected readonly job: RecurringJob<'billing.expire-grants'> = {
    name: 'billing.expire-grants',
    payload: { v: 1 },
    repeat: { pattern: EXPIRE_GRANTS_PATTERN, tz: 'UTC' },
    // A failed pass is tried again soon; the next one comes in 10 minutes anyway.
    opts: {
      attempts: 3,
      backoff: { type: 'exponential', delay: settings.backoffDelayMs },
      removeOnComplete: settings.keepCompleted,
      removeOnFail: settings.keepFailed,
    },
    label: 'the expiry of operator grants',
  };

  constructor(jobs: JobQueue) {
    super(jobs);
  }
}
