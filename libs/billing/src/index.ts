export { BILLING_SCHEMA, BillingWorkerModule } from './billing.module';
