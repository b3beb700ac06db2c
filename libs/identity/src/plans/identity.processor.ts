import { Processor } from '@nestjs/bullmq';
import { QUEUE_SETTINGS, QueueName } from '@plink/contracts';
import { ContractWorker, type JobHandlers } from '@plink/queue';
import { AccountExportsService } from '../account-data/account-exports.service';
import { AccountEmailService } from '../use-cases/account-email.service';
import { ApplyPlanChangeService } from './apply-plan-change.service';

/** The identity queue: billing's plan changes, into the user's copy; account e-mails to address (see AccountEmailService);
 * account exports marked ready (their link e-mailed) and swept after 24 hours. */
@Processor(QueueName.Identity, { concurrency: QUEUE_SETTINGS[QueueName.Identity].concurrency })
export class IdentityProcessor extends ContractWorker<QueueName.Identity> {
  protected readonly queueName = QueueName.Identity;
  protected readonly handlers: JobHandlers<QueueName.Identity> = {
    'plan.changed': (payload) => this.applyPlanChange.execute(payload),
    'identity.account-email': (payload) => this.accountEmail.execute(payload),
    'identity.account-export-ready': (payload) => this.exports.ready(payload),
    'identity.sweep-exports': async () => {
      await this.exports.sweep();
    },
  };

  constructor(
    private readonly applyPlanChange: ApplyPlanChangeService,
    private readonly accountEmail: AccountEmailService,
    private readonly exports: AccountExportsService,
  ) {
    super();
  }
}
