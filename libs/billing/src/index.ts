export { BILLING_SCHEMA } from './billing.schema';
export { BillingHttpModule, BillingWorkerModule, BillingOperatorModule } from './billing.module';
export { ApplyPlanService } from './use-cases/apply-plan.service';
export { ExpireGrantsService } from './use-cases/expire-grants.service';
export { LeadRemovalService } from './use-cases/lead-removal.service';
export { runPlinkCommand, PLINK_USAGE, type PlinkCommandIo, type PlinkCommandUsers } from './operator/plink-command';
