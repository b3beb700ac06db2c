import { Module } from '@nestjs/common';
import type { ServiceSchema } from '@plink/platform';

/** The leads service's tables (schema "leads"): none yet; its migrations arrive with its features. */
export const LEADS_SCHEMA: ServiceSchema = { service: 'leads', entities: [], migrations: [] };

/**
 * The leads service's workers. It serves no queue yet: its app boots, keeps its schema
 * migrated, reports health and stops cleanly, so operators can deploy it from day one.
 */
@Module({})
export class LeadsWorkerModule {}
