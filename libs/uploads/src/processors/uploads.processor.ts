import { Processor } from '@nestjs/bullmq';
import { QUEUE_SETTINGS, QueueName } from '@plink/contracts';
import { ContractWorker, type JobHandlers } from '@plink/queue';
import { DeleteUploadsService } from '../use-cases/delete-uploads.service';
import { SweepUploadsService } from '../use-cases/sweep-uploads.service';

/** The uploads queue: removing images no page shows any more, and sweeping uploads never saved to a page. */
@Processor(QueueName.Uploads, { concurrency: QUEUE_SETTINGS[QueueName.Uploads].concurrency })
export class UploadsProcessor extends ContractWorker<QueueName.Uploads> {
  protected readonly queueName = QueueName.Uploads;
  protected readonly handlers: JobHandlers<QueueName.Uploads> = {
    'pages.delete-uploads': (payload) => this.deleteUploads.execute(payload.keys),
    'pages.sweep-uploads': async () => {
      await this.sweepUploads.execute();
    },
  };

  constructor(
    private readonly deleteUploads: DeleteUploadsService,
    private readonly sweepUploads: SweepUploadsService,
  ) {
    super();
  }
}
