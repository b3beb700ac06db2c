import { Injectable } from '@nestjs/common';
import { QUEUE_SETTINGS, QueueName } from '@plink/contracts';
import { JobQueue, RecurringJobScheduler, type RecurringJob } from '@plink/platform';

/** Every hour at :23: warnings and removals happen within the hour of their time. */
export const LEAD_REMOVAL_PATTERN = '23 * * * *';

const settings = QUEUE_SETTINGS[QueueName.Billing];

/** Keeps the repeatable 'billing.lead-removal' job scheduled (one scheduler id, whatever the replicas). */
@Injectable()
export class LeadRemovalScheduler extends RecurringJobScheduler<'billing.lead-removal'> {
  protected readonly job: RecurringJob<'billing.lead-removal'> = {
    name: 'billing.lead-removal',
    payload: { v: 1 },
    repeat: { pattern: LEAD_REMOVAL_PATTERN, tz: 'UTC' },
    opts: {
      attempts: 3,
      backoff: { type: 'exponential', delay: settings.backoffDelayMs },
      removeOnComplete: settings.keepCompleted,
      removeOnFail: settings.keepFailed,
    },
    label: 'the removal of paused pages\' leads after a downgrade',
  };

  constructor(jobs: JobQueue) {
    super(jobs);
  }
}
