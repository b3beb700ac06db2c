import { randomBytes } from 'node:crypto';
import { Client, Pool } from 'pg';

/** Where tests find PostgreSQL: TEST_DATABASE_URL, else the machine's server on 127.0.0.1:5432. */
export function adminDatabaseUrl(): string {
  return process.env.TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
}

export interface TestDatabase {
  url: string;
  name: string;
  drop(): Promise<void>;
}

/** A fresh, empty database for one test file; `drop()` removes it. */
export async function createTestDatabase(): Promise<TestDatabase> {
  const admin = new URL(adminDatabaseUrl());
  const name = `plink_test_${Date.now().toString(36)}_${randomBytes(3).toString('hex')}`;
  const client = new Client({ connectionString: admin.toString() });
  await client.connect().catch((err: Error) => {
    throw new Error(
      `Tests need PostgreSQL at ${admin.host} (set TEST_DATABASE_URL, or start it: pg_ctlcluster --skip-systemctl-redirect 15 main start): ${err.message}`,
    );
  });
  try {
    await client.query(`create database "${name}"`);
  } finally {
    await client.end();
  }
  const url = new URL(admin.toString());
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    name,
    async drop() {
      const c = new Client({ connectionString: admin.toString() });
      await c.connect();
      try {
        await c.query(`drop database if exists "${name}" with (force)`);
      } finally {
        await c.end();
      }
    },
  };
}

/**
 * A test's own handle on its database: a small pool, since a test may poll several things at once (one client
 * would queue them, which pg 9 refuses). Its connections may still be closing when the test database is
 * dropped at the end (`pool.end()` does not wait for their sockets); PostgreSQL then cuts them, and that is
 * expected: the pool's error is not the test's.
 */
export async function openTestPool(url: string): Promise<Pool> {
  const pool = new Pool({ connectionString: url, max: 4 });
  pool.on('error', () => undefined);
  await pool.query('select 1');
  return pool;
}
