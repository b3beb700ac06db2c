import { LEADS_SCHEMA, LeadsWorkerModule } from '@plink/leads';
import { runWorkerApp } from '@plink/platform';

void runWorkerApp({
  service: 'leads',
  workerModule: LeadsWorkerModule,
  // Its own schema only (the platform's tables come with the platform): what it knows of pages, it keeps
  // in its own read model, fed by the pages service's events.
  schema: LEADS_SCHEMA,
  defaultHealthPort: 3103,
});
