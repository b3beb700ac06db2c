import { BILLING_SCHEMA, BillingWorkerModule } from '@plink/billing';
import { IDENTITY_SCHEMA } from '@plink/identity';
import { runWorkerApp } from '@plink/platform';

void runWorkerApp({
  service: 'billing',
  workerModule: BillingWorkerModule,
  // Stripe's events name users by id: it checks them through identity's read API.
  schemas: [IDENTITY_SCHEMA, BILLING_SCHEMA],
  defaultHealthPort: 3104,
});
