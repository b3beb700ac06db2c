import { Module } from '@nestjs/common';
import type { ServiceSchema } from '@plink/platform';

/** The pages service's tables (schema "pages"): none yet; its migrations arrive with its features. */
export const PAGES_SCHEMA: ServiceSchema = { service: 'pages', entities: [], migrations: [] };

/**
 * The pages service's workers. It serves no queue yet: its app boots, keeps its schema
 * migrated, reports health and stops cleanly, so operators can deploy it from day one.
 */
@Module({})
export class PagesWorkerModule {}
