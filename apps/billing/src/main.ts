import { BILLING_SCHEMA, BillingWorkerModule } from '@plink/billing';
import { runWorkerApp } from '@plink/platform';

void runWorkerApp({
  service: 'billing',
  workerModule: BillingWorkerModule,
  schemas: [BILLING_SCHEMA],
  defaultHealthPort: 3104,
});
