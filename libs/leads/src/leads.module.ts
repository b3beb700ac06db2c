import { Module } from '@nestjs/common';
import { IdentityReadModule } from '@plink/identity';
import { ConversionsReader, PagesReadModule } from '@plink/pages';
import { Outbox } from '@plink/platform';
import { LeadsDirectory } from './directory/leads-directory';
import { LeadFormController } from './http/lead-form.controller';
import { LeadsController } from './http/leads.controller';
import { LeadSubmitRoute } from './http/lead-submit.route';
import { LeadBatcher } from './leads/lead-batcher';
import { LeadsRepository } from './leads/leads.repository';
import { LeadsProcessor } from './processors/leads.processor';
import { CaptureLeadService } from './use-cases/capture-lead.service';
import { DeletePageContactsService } from './use-cases/delete-page-contacts.service';
import { DeletePageLeadsService } from './use-cases/delete-page-leads.service';
import { ExportLeadsService } from './use-cases/export-leads.service';
import { OwnedPages } from './use-cases/owned-pages';
import { PageStatsService } from './use-cases/page-stats.service';

/** The leads tables' repository, shared by the service's own modules (never exported from the lib). */
@Module({ providers: [LeadsRepository], exports: [LeadsRepository] })
class LeadsDataModule {}

/**
 * The leads service's read side, for other services: LeadsDirectory, and the pages service's
 * ConversionsReader port (how pages shows conversions without depending on leads).
 */
@Module({
  imports: [LeadsDataModule],
  providers: [LeadsDirectory, { provide: ConversionsReader, useExisting: LeadsDirectory }],
  exports: [LeadsDirectory, ConversionsReader],
})
export class LeadsReadModule {}

/** The leads calls, mounted by the gateway: submissions (JSON and form posts), stats and export. */
@Module({
  imports: [LeadsDataModule, IdentityReadModule, PagesReadModule],
  controllers: [LeadsController, LeadFormController],
  providers: [
    {
      // One per process: submissions from every request share its statements (group commit).
      provide: LeadBatcher,
      inject: [LeadsRepository, Outbox],
      useFactory: (leads: LeadsRepository, outbox: Outbox) => {
        const jobsSql = outbox.rowsFromJobsColumn('new_leads', 'id', 'jobs');
        return new LeadBatcher((batch) => leads.insertBatch(batch, jobsSql));
      },
    },
    CaptureLeadService,
    LeadSubmitRoute,
    OwnedPages,
    PageStatsService,
    ExportLeadsService,
  ],
})
export class LeadsHttpModule {}

/** The leads service's workers: its own queue (removing the leads of deleted pages, and of paused pages when their date comes). */
@Module({
  imports: [LeadsDataModule],
  providers: [DeletePageLeadsService, DeletePageContactsService, LeadsProcessor],
})
export class LeadsWorkerModule {}
