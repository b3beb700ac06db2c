import { Module } from '@nestjs/common';
import { LeadsDemo } from './demo/sample-leads';
import { DoubleOptInService } from './double-opt-in/double-opt-in.service';
import { OptInSweepService } from './double-opt-in/opt-in-sweep.service';
import { ConfirmLeadController } from './http/confirm-lead.controller';
import { LeadClock } from './model/lead-clock';
import { LeadsDirectory } from './directory/leads-directory';
import { ConsentRecordController } from './http/consent-record.controller';
import { LeadFormController } from './http/lead-form.controller';
import { LeadsController } from './http/leads.controller';
import { LeadSubmitController } from './http/lead-submit.controller';
import { ConsentRecords } from './model/consent-records';
import { ConsentTexts } from './model/consent-texts';
import { LeadBatcher } from './model/lead-batcher';
import { LeadsRepository } from './model/leads.repository';
import { LeadAnalyticsRepository } from './model/lead-analytics.repository';
import { ListLeadsService } from './use-cases/list-leads.service';
import { PageAnalytics } from './use-cases/page-analytics';
import { ApplyOwnerHooksService, ApplyOwnerPlanService, ApplyPageChangeService, ApplyPageChangesHere } from './page-facts/apply-page-change';
import { LeadsV1Controller } from './http/leads-v1.controller';
import { PageFactsChanges } from './page-facts/page-facts-changes';
import { OwnerHooksRepository, OwnerPlansRepository, PageFactsRepository } from './page-facts/page-facts.repository';
import { SubmissionPages } from './page-facts/submission-pages';
import { LeadsProcessor } from './processors/leads.processor';
import { BlockedCounter } from './shield/blocked-counter';
import { EmailDomainCheck } from './shield/email-domains';
import { FloodWatch } from './shield/flood-watch';
import { FormTokenVerifier } from './shield/form-token-check';
import { CaptureLeadService } from './use-cases/capture-lead.service';
import { ConsentRecordService } from './use-cases/consent-record.service';
import { DeletePageContactsService } from './use-cases/delete-page-contacts.service';
import { DeleteLeadsService } from './use-cases/delete-leads.service';
import { DeletePageLeadsService } from './use-cases/delete-page-leads.service';
import { LeadsOwnerDeletedService } from './use-cases/owner-deleted.service';
import { AccountExportLeadsService } from './export/account-export-leads.service';
import { ExportLeadsService } from './use-cases/export-leads.service';
import { OwnedPages } from './use-cases/owned-pages';
import { PageStatsService } from './use-cases/page-stats.service';
import { PageProtectionService } from './use-cases/page-protection.service';

/**
 * The leads tables' repositories (leads, and the read model of pages) and the read model's cache
 * invalidation, shared by the service's own modules (never exported from the lib).
 */
@Module({
  providers: [LeadsRepository, PageFactsRepository, OwnerPlansRepository, OwnerHooksRepository, PageFactsChanges, LeadClock, DoubleOptInService],
  exports: [LeadsRepository, PageFactsRepository, OwnerPlansRepository, OwnerHooksRepository, PageFactsChanges, LeadClock, DoubleOptInService],
})
class LeadsDataModule {}

/**
 * The leads service's read side, for other services: LeadsDirectory (the process that composes the
 * services binds the pages service's ConversionsReader port to it).
 */
@Module({
  imports: [LeadsDataModule],
  providers: [LeadsDirectory],
  exports: [LeadsDirectory],
})
export class LeadsReadModule {}

/**
 * The leads calls, mounted by the gateway: submissions (JSON and form posts), stats and export. The page
 * of a submission comes from the service's own read model (SubmissionPages), which this process keeps up
 * to date with the page changes it makes (ApplyPageChangesHere). Needs an OwnedPagesReader (stats and
 * export) and, optionally, a PageFactsFallback, both bound by the process that composes the services.
 */
@Module({
  imports: [LeadsDataModule],
  controllers: [LeadsController, LeadsV1Controller, LeadSubmitController, LeadFormController, ConsentRecordController, ConfirmLeadController],
  providers: [
    {
      // One per process: submissions from every request share its statements (group commit).
      provide: LeadBatcher,
      inject: [LeadsRepository],
      useFactory: (leads: LeadsRepository) => new LeadBatcher((batch) => leads.insertBatch(batch)),
    },
    SubmissionPages,
    ApplyPageChangesHere,
    CaptureLeadService,
    DeleteLeadsService,
    FormTokenVerifier,
    EmailDomainCheck,
    BlockedCounter,
    FloodWatch,
    OwnedPages,
    PageStatsService,
    PageProtectionService,
    PageAnalytics,
    LeadAnalyticsRepository,
    ListLeadsService,
    ExportLeadsService,
    ConsentTexts,
    ConsentRecords,
    ConsentRecordService,
  ],
})
export class LeadsHttpModule {}

/**
 * The leads service's workers: its own queue (removing the leads of deleted pages, and of paused pages when
 * their date comes; the double opt-in reminders and expiry; keeping the read model of pages up to date with the pages service's events).
 */
@Module({
  imports: [LeadsDataModule],
  providers: [DeletePageLeadsService, DeletePageContactsService, ApplyPageChangeService, ApplyOwnerPlanService, ApplyOwnerHooksService, OptInSweepService, LeadsOwnerDeletedService, AccountExportLeadsService, LeadsProcessor],
})
export class LeadsWorkerModule {}

/** The leads service's part of the demo seed (the sample page's leads), composed by the gateway in development only. */
@Module({
  imports: [LeadsDataModule],
  providers: [LeadsDemo],
  exports: [LeadsDemo],
})
export class LeadsDemoModule {}
