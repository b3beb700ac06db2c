import { LEADS_SCHEMA, LeadsWorkerModule } from '@plink/leads';
import { runWorkerApp } from '@plink/platform';

void runWorkerApp({
  service: 'leads',
  workerModule: LeadsWorkerModule,
  schemas: [LEADS_SCHEMA],
  defaultHealthPort: 3103,
});
