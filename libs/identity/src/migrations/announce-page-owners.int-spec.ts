import { Client } from 'pg';
import { JOBS } from '@plink/contracts';
import { OUTBOX_SCHEMA, migrateServices } from '@plink/platform';
import { createTestDatabase, type TestDatabase } from '@plink/testing';
import { IDENTITY_SCHEMA } from '../identity.schema';

/**
 * The pages service's copy of page owners starts from identity's one-time announcement: upgrading a
 * database that already has users records one 'pages.owner-plan-changed' job per user (not the examples
 * account), as identity has them, through the outbox.
 */
describe('announcing the existing users to the pages service', () => {
  let db: TestDatabase;
  let client: Client;

  beforeAll(async () => {
    db = await createTestDatabase();
    client = new Client({ connectionString: db.url });
    await client.connect();
  });

  afterAll(async () => {
    await client?.end();
    await db?.drop();
  });

  it('records one job per existing user with their username and plan, valid by the job contract', async () => {
    const announcement = '20261126_announce_page_owners';
    const before = { ...IDENTITY_SCHEMA, migrations: IDENTITY_SCHEMA.migrations.filter((m) => m.name < announcement) };
    await migrateServices(db.url, [OUTBOX_SCHEMA, before]);
    const { rows } = await client.query(
      `insert into identity.users (username, email, password_hash, is_premium, plan_changed_at) values
         ('free_one', 'free@example.com', 'x', false, null),
         ('pro_one', 'pro@example.com', 'x', true, '2026-11-20T08:30:00.123Z')
       returning id, username`,
    );
    expect((await client.query('select count(*)::int as n from platform.outbox')).rows[0].n).toBe(0);

    await migrateServices(db.url, [OUTBOX_SCHEMA, IDENTITY_SCHEMA]);
    const jobs = (await client.query("select queue, job_name, payload from platform.outbox where job_name = 'pages.owner-plan-changed' order by (payload->>'userId')::int"))
      .rows;
    expect(jobs).toEqual([
      { queue: 'pages', job_name: 'pages.owner-plan-changed', payload: { v: 1, userId: rows[0].id, username: 'free_one', isPremium: false, changedAt: null } },
      {
        queue: 'pages',
        job_name: 'pages.owner-plan-changed',
        payload: { v: 1, userId: rows[1].id, username: 'pro_one', isPremium: true, changedAt: '2026-11-20T08:30:00.123Z' },
      },
    ]);
    for (const job of jobs) expect(JOBS['pages.owner-plan-changed'].schema.safeParse(job.payload).success).toBe(true);
  });
});
