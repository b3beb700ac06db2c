import { Processor } from '@nestjs/bullmq';
import { QUEUE_SETTINGS, QueueName } from '@plink/contracts';
import { ContractWorker, type JobHandlers } from '@plink/queue';
import { FlushAnalyticsService } from '../analytics/flush-analytics.service';
import { FlushViewsService } from '../use-cases/flush-views.service';
import { OwnerPlanChangedService } from '../use-cases/owner-plan-changed.service';
import { Storage } from '@plink/storage';
import { AccountExportZipService } from '../account-export/account-export-zip.service';
import { OwnerDeletedService } from '../use-cases/owner-deleted.service';
import { OwnerProfileChangedService } from '../use-cases/owner-profile-changed.service';
import { RemovePausedLeadsService } from '../use-cases/remove-paused-leads.service';
import { PurgeTrashService } from '../trash/purge-trash.service';
import { WebhookEndpointService } from '../webhooks/webhook-endpoint.service';

/**
 * The pages queue: moving buffered views (and the per-day analytics) into the database; when a page owner's plan changes (billing's
 * 'plan.changed'), pausing or un-pausing their pages and dropping them from the caches; when an owner is
 * renamed or given a new e-mail address (identity's 'user.changed'), their pages following; when an owner
 * deleted their account ('user.deleted'), their pages, copy and stored files removed; removing the leads of
 * paused pages when their date comes (and the warning a week before); turning off a webhook the
 * notifications service gave up on; removing for good the pages 14 days in the Trash.
 */
@Processor(QueueName.Pages, { concurrency: QUEUE_SETTINGS[QueueName.Pages].concurrency })
export class PagesProcessor extends ContractWorker<QueueName.Pages> {
  protected readonly queueName = QueueName.Pages;
  protected readonly handlers: JobHandlers<QueueName.Pages> = {
    'pages.flush-views': async () => {
      await this.flushViews.execute();
      await this.flushAnalytics.execute();
    },
    'plan.changed': async (payload) => {
      await this.ownerPlanChanged.execute(payload.userId, new Date(), { isPremium: payload.isPremium, version: payload.version });
    },
    'user.changed': (payload) => this.ownerProfileChanged.execute(payload),
    'user.deleted': (payload) => this.ownerDeleted.execute(payload.userId, this.storage),
    'pages.account-export': (payload) => this.accountExport.execute(payload),
    'pages.remove-paused-leads': async (payload) => {
      await this.removePausedLeads.execute(payload.userId);
    },
    'pages.lead-removal-warning': (payload) => this.removePausedLeads.warn(payload.userId, payload.removalAt),
    'pages.disable-webhook': (payload) => this.webhookEndpoint.disable(payload),
    'pages.purge-trash': async () => {
      await this.purgeTrash.execute();
    },
  };

  constructor(
    private readonly flushViews: FlushViewsService,
    private readonly ownerPlanChanged: OwnerPlanChangedService,
    private readonly ownerProfileChanged: OwnerProfileChangedService,
    private readonly removePausedLeads: RemovePausedLeadsService,
    private readonly webhookEndpoint: WebhookEndpointService,
    private readonly flushAnalytics: FlushAnalyticsService,
    private readonly purgeTrash: PurgeTrashService,
    private readonly ownerDeleted: OwnerDeletedService,
    private readonly storage: Storage,
    private readonly accountExport: AccountExportZipService,
  ) {
    super();
  }
}
