import { Migrator } from '@mikro-orm/migrations';
import { MikroORM } from '@mikro-orm/postgresql';
import { Client } from 'pg';
import { getLogger } from '@plink/observability';
import type { ServiceSchema } from './service-schema';

const MIGRATION_LOCK_ID = 7_412_001;

/**
 * Applies every pending migration of every given service, one service after the other, under a
 * PostgreSQL advisory lock so that replicas starting together do not race.
 */
export async function migrateServices(databaseUrl: string, schemas: ServiceSchema[]): Promise<void> {
  const lock = new Client({ connectionString: databaseUrl });
  await lock.connect();
  try {
    await lock.query('select pg_advisory_lock($1)', [MIGRATION_LOCK_ID]);
    for (const schema of schemas) {
      await lock.query(`create schema if not exists "${schema.service}"`);
      if (schema.migrations.length === 0) continue;
      const orm = await MikroORM.init({
        clientUrl: databaseUrl,
        entities: schema.entities,
        discovery: { warnWhenNoEntities: false },
        extensions: [Migrator],
        pool: { min: 0, max: 2 },
        debug: false,
        migrations: {
          schema: schema.service,
          tableName: 'migrations',
          migrationsList: schema.migrations,
          snapshot: false,
          snapshotOnMigrate: false,
          silent: true,
          transactional: true,
          allOrNothing: true,
        },
      });
      try {
        const applied = await orm.migrator.up();
        if (applied.length > 0) {
          getLogger().info({ service: schema.service, migrations: applied.map((m) => m.name) }, 'migrations applied');
        }
      } finally {
        await orm.close(true);
      }
    }
  } finally {
    await lock.query('select pg_advisory_unlock($1)', [MIGRATION_LOCK_ID]).catch(() => undefined);
    await lock.end();
  }
}

/** Thrown at start when migrations are pending and the process may not apply them (MIGRATE_ON_START=false). */
export class PendingMigrationsError extends Error {}

/**
 * The migrations of the given services not yet applied to the database, as `service/name` (the
 * migrations tables MikroORM keeps per service schema; a missing table means none is applied).
 */
export async function pendingMigrations(databaseUrl: string, schemas: ServiceSchema[]): Promise<string[]> {
  const client = new Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    const pending: string[] = [];
    for (const schema of schemas) {
      if (schema.migrations.length === 0) continue;
      const table = await client.query<{ exists: boolean }>('select to_regclass($1) is not null as exists', [`"${schema.service}".migrations`]);
      const applied = table.rows[0]?.exists
        ? new Set((await client.query<{ name: string }>(`select name from "${schema.service}".migrations`)).rows.map((r) => r.name))
        : new Set<string>();
      for (const m of schema.migrations) if (!applied.has(m.name)) pending.push(`${schema.service}/${m.name}`);
    }
    return pending;
  } finally {
    await client.end();
  }
}

/** Refuses to go on while migrations are pending (a process that may not migrate, e.g. in a cluster). */
export async function assertMigrated(databaseUrl: string, schemas: ServiceSchema[]): Promise<void> {
  const pending = await pendingMigrations(databaseUrl, schemas);
  if (pending.length > 0) {
    throw new PendingMigrationsError(
      `The database is not migrated (${pending.length} pending: ${pending.join(', ')}). ` +
        'Run "plink migrate" (npm run plink -- migrate) first, or start with MIGRATE_ON_START=true.',
    );
  }
}
