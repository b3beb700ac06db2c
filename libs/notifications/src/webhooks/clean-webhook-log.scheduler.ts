import { Injectable } from '@nestjs/common';
import { JobQueue, RecurringJobScheduler, type RecurringJob } from '@plink/platform';

/** Every hour (at minute 17): delivery logs older than 30 days, or beyond a page's 100 newest, are removed. */
@Injectable()
export class CleanWebhookLogScheduler extends RecurringJobScheduler<'webhook.clean-log'> {
  protected readonly job: RecurringJob<'webhook.clean-log'> = {
    name: 'webhook.clean-log',
    payload: { v: 1 },
    repeat: { pattern: '17 * * * *', tz: 'UTC' },
    opts: { attempts: 3, backoff: { type: 'fixed', delay: 60_000 }, removeOnComplete: 10, removeOnFail: 50 },
    label: 'the webhook log clean-up',
  };

  constructor(jobs: JobQueue) {
    super(jobs);
  }
}
