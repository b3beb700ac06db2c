import { Processor } from '@nestjs/bullmq';
import { QUEUE_SETTINGS, QueueName } from '@plink/contracts';
import { ContractWorker, type JobHandlers } from '@plink/platform';
import { FlushViewsService } from '../use-cases/flush-views.service';

/** The pages queue: moving buffered views into the database. */
@Processor(QueueName.Pages, { concurrency: QUEUE_SETTINGS[QueueName.Pages].concurrency })
export class PagesProcessor extends ContractWorker<QueueName.Pages> {
  protected readonly queueName = QueueName.Pages;
  protected readonly handlers: JobHandlers<QueueName.Pages> = {
    'pages.flush-views': async () => {
      await this.flushViews.execute();
    },
  };

  constructor(private readonly flushViews: FlushViewsService) {
    super();
  }
}
