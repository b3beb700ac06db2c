import { Migrator } from '@mikro-orm/migrations';
import { MikroORM } from '@mikro-orm/postgresql';
import { Client } from 'pg';
import { getLogger } from '../logging/logger';
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
