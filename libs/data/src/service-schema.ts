import type { EntitySchema, MigrationObject } from '@mikro-orm/core';

/**
 * What a service brings to the shared database: its PostgreSQL schema (the service owns every
 * table in it), its entities and its migrations (applied in order, tracked per service).
 */
export interface ServiceSchema {
  service: string;
  entities: EntitySchema<any, any>[];
  migrations: MigrationObject[];
}
