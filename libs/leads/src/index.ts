export { LEADS_SCHEMA } from './leads.schema';
export { LeadsHttpModule, LeadsReadModule, LeadsWorkerModule } from './leads.module';
export { LeadsDirectory, type LeadForDelivery, type LeadForWebhook } from './directory/leads-directory';
