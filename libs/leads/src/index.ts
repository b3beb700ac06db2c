export { LEADS_SCHEMA } from './leads.schema';
export { LeadsHttpModule, LeadsReadModule, LeadsWorkerModule } from './leads.module';
export { LeadsDirectory } from './directory/leads-directory';
export { OwnedPagesReader, PageFactsFallback, type OwnedPage } from './page-facts/ports';
