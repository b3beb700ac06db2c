import { IDENTITY_SCHEMA, IdentityWorkerModule } from '@plink/identity';
import { runWorkerApp } from '@plink/platform';

void runWorkerApp({
  service: 'identity',
  workerModule: IdentityWorkerModule,
  // Its own schema only (plus the platform's outbox): the database role of this app needs no other.
  schema: IDENTITY_SCHEMA,
  defaultHealthPort: 3101,
});
