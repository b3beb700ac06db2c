import { IDENTITY_SCHEMA, IdentityWorkerModule } from '@plink/identity';
import { runWorkerApp } from '@plink/platform';

void runWorkerApp({
  service: 'identity',
  workerModule: IdentityWorkerModule,
  schemas: [IDENTITY_SCHEMA],
  defaultHealthPort: 3101,
});
