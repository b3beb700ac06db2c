import { Processor } from '@nestjs/bullmq';
import { QUEUE_SETTINGS, QueueName } from '@plink/contracts';
import { ContractWorker, type JobHandlers } from '@plink/platform';
import { ApplyPlanChangeService } from './apply-plan-change.service';

/** The identity queue: plan changes published by billing. */
@Processor(QueueName.Identity, { concurrency: QUEUE_SETTINGS[QueueName.Identity].concurrency })
export class IdentityProcessor extends ContractWorker<QueueName.Identity> {
  protected readonly queueName = QueueName.Identity;
  protected readonly handlers: JobHandlers<QueueName.Identity> = {
    'identity.plan-changed': (payload) => this.applyPlanChange.execute(payload),
  };

  constructor(private readonly applyPlanChange: ApplyPlanChangeService) {
    super();
  }
}
