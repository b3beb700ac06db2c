import { Module } from '@nestjs/common';
import type { ServiceSchema } from '@plink/platform';

/** The billing service's tables (schema "billing"): none yet; its migrations arrive with its features. */
export const BILLING_SCHEMA: ServiceSchema = { service: 'billing', entities: [], migrations: [] };

/**
 * The billing service's workers. It serves no queue yet: its app boots, keeps its schema
 * migrated, reports health and stops cleanly, so operators can deploy it from day one.
 */
@Module({})
export class BillingWorkerModule {}
