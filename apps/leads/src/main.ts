import { IDENTITY_SCHEMA } from '@plink/identity';
import { LEADS_SCHEMA, LeadsWorkerModule } from '@plink/leads';
import { PAGES_SCHEMA } from '@plink/pages';
import { runWorkerApp } from '@plink/platform';

void runWorkerApp({
  service: 'leads',
  workerModule: LeadsWorkerModule,
  // Its own schema, plus those it reads through the identity and pages read APIs.
  schemas: [IDENTITY_SCHEMA, PAGES_SCHEMA, LEADS_SCHEMA],
  defaultHealthPort: 3103,
});
