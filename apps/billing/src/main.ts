import { BILLING_SCHEMA, BillingWorkerModule } from '@plink/billing';
import { runWorkerApp } from '@plink/platform';

void runWorkerApp({
  service: 'billing',
  workerModule: BillingWorkerModule,
  // Its own schema only: Stripe's events name users by id, which billing's accounts know.
  schema: BILLING_SCHEMA,
  defaultHealthPort: 3104,
});
