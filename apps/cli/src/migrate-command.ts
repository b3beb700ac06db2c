import { BILLING_SCHEMA } from '@plink/billing';
import { IDENTITY_SCHEMA } from '@plink/identity';
import { LEADS_SCHEMA } from '@plink/leads';
import { NOTIFICATIONS_SCHEMA } from '@plink/notifications';
import { PAGES_SCHEMA } from '@plink/pages';
import { ConfigError, loadConfig, type AppConfig } from '@plink/config';
import { OUTBOX_SCHEMA, migrateServices, pendingMigrations, type ServiceSchema } from '@plink/data';

/**
 * Every schema of a Plink database, in the order they are migrated (the outbox first, as every process does).
 * Only this command and the gateway migrate them all: each worker app migrates (or, with MIGRATE_ON_START=false,
 * checks) its own service's schema and the outbox, and its database role needs no other.
 */
export const ALL_SCHEMAS: ServiceSchema[] = [OUTBOX_SCHEMA, IDENTITY_SCHEMA, PAGES_SCHEMA, LEADS_SCHEMA, BILLING_SCHEMA, NOTIFICATIONS_SCHEMA];

export interface MigrateIo {
  out(line: string): void;
  err(line: string): void;
  env?: NodeJS.ProcessEnv;
  /** Called once the configuration is read (the CLI sets its logger up here). */
  onConfig?(config: AppConfig): void;
  /** The one line said when DATABASE_URL is not set. */
  missingDatabase?: string;
}

/**
 * `plink migrate`: applies every pending migration of every service (under the same advisory lock as a
 * starting process), then says how many it applied. A cluster runs it as a one-off job before a rollout, with
 * the apps started with MIGRATE_ON_START=false. Exit code 0 done, 1 could not be done.
 */
export async function runMigrate(io: MigrateIo): Promise<number> {
  const env = io.env ?? process.env;
  if (!env.DATABASE_URL?.trim()) {
    io.err(io.missingDatabase ?? 'plink: DATABASE_URL is not set.');
    return 1;
  }
  let config: AppConfig;
  try {
    config = loadConfig(env);
  } catch (err) {
    if (!(err instanceof ConfigError)) throw err;
    io.err(`plink: ${err.message}`);
    return 1;
  }
  io.onConfig?.(config);
  const databaseUrl = config.databaseUrl;
  try {
    const pending = await pendingMigrations(databaseUrl, ALL_SCHEMAS);
    await migrateServices(databaseUrl, ALL_SCHEMAS);
    io.out(pending.length === 0 ? 'The database is up to date; nothing to migrate.' : `Applied ${pending.length} migration(s): ${pending.join(', ')}.`);
    return 0;
  } catch (err) {
    io.err(`plink: migrating failed: ${(err as Error).message}`);
    return 1;
  }
}
