export { LEADS_SCHEMA, LeadsWorkerModule } from './leads.module';
