import { Processor } from '@nestjs/bullmq';
import { QUEUE_SETTINGS, QueueName } from '@plink/contracts';
import { ContractWorker, type JobHandlers } from '@plink/queue';
import { ApplyOwnerHooksService, ApplyOwnerPlanService, ApplyPageChangeService } from '../page-facts/apply-page-change';
import { AccountExportLeadsService } from '../export/account-export-leads.service';
import { OptInSweepService } from '../double-opt-in/opt-in-sweep.service';
import { DeletePageContactsService } from '../use-cases/delete-page-contacts.service';
import { DeletePageLeadsService } from '../use-cases/delete-page-leads.service';
import { LeadsOwnerDeletedService } from '../use-cases/owner-deleted.service';

/**
 * The leads service's own queue: removing the leads of deleted pages, and the contacts of paused pages 30 days
 * after a downgrade, the double opt-in sweep; the pages service's page changes and billing's plan changes, into the read model of pages.
 */
@Processor(QueueName.Leads, { concurrency: QUEUE_SETTINGS[QueueName.Leads].concurrency })
export class LeadsProcessor extends ContractWorker<QueueName.Leads> {
  protected readonly queueName = QueueName.Leads;
  protected readonly handlers: JobHandlers<QueueName.Leads> = {
    'leads.delete-for-page': (payload) => this.deleteForPage.execute(payload.pageId),
    'leads.delete-contacts-for-page': async (payload) => {
      await this.deleteContacts.execute(payload.pageId);
    },
    'page.changed': (payload) => this.applyPageChange.execute(payload),
    'plan.changed': (payload) => this.applyOwnerPlan.execute(payload),
    'hooks.changed': (payload) => this.applyOwnerHooks.execute(payload),
    'user.deleted': (payload) => this.ownerDeleted.execute(payload.userId),
    'leads.account-export': (payload) => this.accountExport.execute(payload),
    'leads.opt-in-sweep': async () => {
      await this.optInSweep.execute();
    },
  };

  constructor(
    private readonly deleteForPage: DeletePageLeadsService,
    private readonly deleteContacts: DeletePageContactsService,
    private readonly applyPageChange: ApplyPageChangeService,
    private readonly applyOwnerPlan: ApplyOwnerPlanService,
    private readonly applyOwnerHooks: ApplyOwnerHooksService,
    private readonly optInSweep: OptInSweepService,
    private readonly ownerDeleted: LeadsOwnerDeletedService,
    private readonly accountExport: AccountExportLeadsService,
  ) {
    super();
  }
}
