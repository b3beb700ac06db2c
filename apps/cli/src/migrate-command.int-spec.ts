import { BILLING_SCHEMA } from '@plink/billing';
import { PendingMigrationsError, openOrm } from '@plink/data';
import { loadConfig } from '@plink/config';
import { createTestDatabase, type TestDatabase } from '@plink/testing';
import { Client } from 'pg';
import { ALL_SCHEMAS, runMigrate } from './migrate-command';

/**
 * `plink migrate` on a real, empty PostgreSQL database, and what a process started with
 * MIGRATE_ON_START=false does before and after it (a cluster's apps wait for the migration job).
 */
describe('plink migrate', () => {
  let db: TestDatabase;

  beforeAll(async () => {
    db = await createTestDatabase();
  });
  afterAll(async () => {
    await db.drop();
  });

  async function migrate(env: Record<string, string>) {
    const out: string[] = [];
    const err: string[] = [];
    const code = await runMigrate({ out: (l) => out.push(l), err: (l) => err.push(l), env: { LOG_LEVEL: 'silent', ...env } });
    return { code, out: out.join('\n'), err: err.join('\n') };
  }

  it('refuses to start an app on an unmigrated database with MIGRATE_ON_START=false, naming what is pending', async () => {
    const config = loadConfig({ DATABASE_URL: db.url, MIGRATE_ON_START: 'false', LOG_LEVEL: 'silent' });
    expect(config.migrateOnStart).toBe(false);
    const refused = openOrm(config, [BILLING_SCHEMA]);
    await expect(refused).rejects.toBeInstanceOf(PendingMigrationsError);
    await expect(refused).rejects.toThrow(/not migrated .*billing\/20261123_create_billing_accounts.*npm run plink -- migrate/);
    // Nothing was created by the refusal.
    const client = new Client({ connectionString: db.url });
    await client.connect();
    try {
      expect((await client.query("select 1 from information_schema.schemata where schema_name = 'billing'")).rowCount).toBe(0);
    } finally {
      await client.end();
    }
  });

  it('applies every service migration once, then says there is nothing to do', async () => {
    const first = await migrate({ DATABASE_URL: db.url });
    expect(first.err).toBe('');
    expect(first.code).toBe(0);
    const total = ALL_SCHEMAS.reduce((n, s) => n + s.migrations.length, 0);
    expect(first.out).toMatch(
      new RegExp(`^Applied ${total} migration\\(s\\): .*identity/.*pages/.*leads/.*billing/20261124_add_downgraded_at.*notifications/20261124_create_webhook_log`),
    );

    const second = await migrate({ DATABASE_URL: db.url });
    expect(second).toEqual({ code: 0, out: 'The database is up to date; nothing to migrate.', err: '' });

    // Now a process that may not migrate starts.
    const orm = await openOrm(loadConfig({ DATABASE_URL: db.url, MIGRATE_ON_START: 'false', LOG_LEVEL: 'silent' }), ALL_SCHEMAS.slice(1));
    try {
      expect((await orm.em.fork().getConnection().execute('select count(*)::int as n from billing.accounts'))[0].n).toBe(0);
    } finally {
      await orm.close(true);
    }
  });

  it('exits 1 with the reason when the configuration is wrong or the database cannot be reached', async () => {
    const bad = await migrate({ DATABASE_URL: 'mysql://nope' });
    expect(bad.code).toBe(1);
    expect(bad.err).toContain('DATABASE_URL must be a postgres:// URL');
    const down = await migrate({ DATABASE_URL: 'postgres://postgres@127.0.0.1:1/nothing' });
    expect(down.code).toBe(1);
    expect(down.err).toMatch(/^plink: migrating failed: .*ECONNREFUSED/);
  });
});
