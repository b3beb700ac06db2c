import { Processor } from '@nestjs/bullmq';
import { QUEUE_SETTINGS, QueueName } from '@plink/contracts';
import { ContractWorker, type JobHandlers } from '@plink/platform';
import { DeletePageLeadsService } from '../use-cases/delete-page-leads.service';

/** The leads service's own queue. */
@Processor(QueueName.Leads, { concurrency: QUEUE_SETTINGS[QueueName.Leads].concurrency })
export class LeadsProcessor extends ContractWorker<QueueName.Leads> {
  protected readonly queueName = QueueName.Leads;
  protected readonly handlers: JobHandlers<QueueName.Leads> = {
    'leads.delete-for-page': (payload) => this.deleteForPage.execute(payload.pageId),
  };

  constructor(private readonly deleteForPage: DeletePageLeadsService) {
    super();
  }
}
