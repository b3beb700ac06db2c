export { LEADS_SCHEMA } from './leads.schema';
export { LeadsDemoModule, LeadsHttpModule, LeadsReadModule, LeadsWorkerModule } from './leads.module';
export { LeadsDirectory } from './directory/leads-directory';
export { OwnedPagesReader, PageFactsFallback, PageVisitsReader, type OwnedPage, type PageVisits } from './page-facts/ports';
export { LeadsDemo, SAMPLE_LEAD_COUNT } from './demo/sample-leads';
