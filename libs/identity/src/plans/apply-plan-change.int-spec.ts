import { type INestApplicationContext } from '@nestjs/common';
import { Client } from 'pg';
import { QueueName, type JobEnvelope, type JobPayload } from '@plink/contracts';
import { JobQueue, createWorkerContext, loadConfig } from '@plink/platform';
import { createTestEnvironment, type TestEnvironment } from '@plink/testing';
import { IdentityWorkerModule } from '../identity.module';
import { IDENTITY_SCHEMA } from '../identity.schema';
import { ApplyPlanChangeService } from './apply-plan-change.service';

/** Identity's copy of the plan, on a real database: applied in order, a late older change ignored. */
describe('applying plan changes to the user', () => {
  let env: TestEnvironment;
  let app: INestApplicationContext;
  let db: Client;
  let service: ApplyPlanChangeService;

  beforeAll(async () => {
    env = await createTestEnvironment();
    app = await createWorkerContext(
      { service: 'identity', workerModule: IdentityWorkerModule, schema: IDENTITY_SCHEMA, defaultHealthPort: 0 },
      loadConfig(env.vars),
    );
    await app.init();
    service = app.get(ApplyPlanChangeService);
    db = new Client({ connectionString: env.database.url });
    await db.connect();
  });

  afterAll(async () => {
    await app?.close();
    await db?.end();
    await env?.cleanup();
  });

  const change = (userId: number, at: string, isPremium: boolean): JobPayload<'identity.plan-changed'> => ({
    v: 1,
    userId,
    isPremium,
    planStatus: isPremium ? 'active' : 'canceled',
    periodEnd: isPremium ? '2027-01-01T00:00:00.000Z' : null,
    stripeCustomerId: 'cus_1',
    stripeSubscriptionId: isPremium ? 'sub_1' : null,
    changedAt: at,
  });

  const plan = async (id: number) =>
    (
      await db.query(
        'select is_premium, plan_status, plan_period_end, stripe_customer_id, stripe_subscription_id from identity.users where id = $1',
        [id],
      )
    ).rows[0];

  it('stores the plan on the user, and ignores a change older than the one applied last', async () => {
    const { rows } = await db.query("insert into identity.users (username, email, password_hash) values ('plan_user', 'plan@example.com', 'x') returning id");
    const id = rows[0].id as number;
    await service.execute(change(id, '2026-11-23T10:00:00.000Z', true));
    expect(await plan(id)).toEqual({
      is_premium: true,
      plan_status: 'active',
      plan_period_end: new Date('2027-01-01T00:00:00.000Z'),
      stripe_customer_id: 'cus_1',
      stripe_subscription_id: 'sub_1',
    });
    await service.execute(change(id, '2026-11-23T09:00:00.000Z', false)); // a retry of an older change, late
    expect((await plan(id)).is_premium).toBe(true);
    await service.execute(change(id, '2026-11-23T11:00:00.000Z', false));
    expect(await plan(id)).toEqual(expect.objectContaining({ is_premium: false, plan_status: 'canceled', plan_period_end: null, stripe_subscription_id: null }));
  });

  it('tells the pages service the owner as identity now has them, with each applied change only', async () => {
    const { rows } = await db.query("insert into identity.users (username, email, password_hash) values ('told_user', 'told@example.com', 'x') returning id");
    const id = rows[0].id as number;
    await service.execute(change(id, '2026-11-23T10:00:00.000Z', true));
    await service.execute(change(id, '2026-11-23T09:00:00.000Z', false)); // stale: nothing to tell
    // No pages worker here: the jobs wait in the pages queue once relayed.
    const queue = app.get(JobQueue).queue(QueueName.Pages);
    const toldOf = async () =>
      (await queue.getJobs(['waiting', 'delayed', 'prioritized'])).map((job) => (job.data as JobEnvelope).payload).filter((payload) => (payload as { userId: number }).userId === id);
    for (const deadline = Date.now() + 5_000; Date.now() < deadline && (await toldOf()).length === 0; ) await new Promise((r) => setTimeout(r, 50));
    await new Promise((r) => setTimeout(r, 300));
    expect(await toldOf()).toEqual([{ v: 1, userId: id, username: 'told_user', isPremium: true, changedAt: '2026-11-23T10:00:00.000Z' }]);
  });

  it('does nothing for a user that no longer exists', async () => {
    await expect(service.execute(change(999_999, '2026-11-23T10:00:00.000Z', true))).resolves.toBeUndefined();
  });
});
