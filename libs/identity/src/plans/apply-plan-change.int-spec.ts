import { type INestApplicationContext } from '@nestjs/common';
import { Client } from 'pg';
import type { EventPayload } from '@plink/contracts';
import { createWorkerContext } from '@plink/platform';
import { loadConfig } from '@plink/config';
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

  const change = (userId: number, version: number, isPremium: boolean): EventPayload<'plan.changed'> => ({
    v: 1,
    userId,
    isPremium,
    planStatus: isPremium ? 'active' : 'canceled',
    periodEnd: isPremium ? '2027-01-01T00:00:00.000Z' : null,
    stripeCustomerId: 'cus_1',
    stripeSubscriptionId: isPremium ? 'sub_1' : null,
    version,
    changedAt: new Date(Date.UTC(2026, 10, 23, 10, version)).toISOString(),
  });

  const plan = async (id: number) =>
    (
      await db.query(
        'select is_premium, plan_status, plan_period_end, stripe_customer_id, stripe_subscription_id from identity.users where id = $1',
        [id],
      )
    ).rows[0];

  it('stores the plan on the user, and ignores a change not newer than the one applied last', async () => {
    const { rows } = await db.query("insert into identity.users (username, email, password_hash) values ('plan_user', 'plan@example.com', 'x') returning id");
    const id = rows[0].id as number;
    await service.execute(change(id, 2, true));
    expect(await plan(id)).toEqual({
      is_premium: true,
      plan_status: 'active',
      plan_period_end: new Date('2027-01-01T00:00:00.000Z'),
      stripe_customer_id: 'cus_1',
      stripe_subscription_id: 'sub_1',
    });
    await service.execute(change(id, 1, false)); // an older change, late
    await service.execute(change(id, 2, false)); // the same version again (a duplicate cannot differ; this one does, and still changes nothing)
    expect((await plan(id)).is_premium).toBe(true);
    await service.execute(change(id, 3, false));
    expect(await plan(id)).toEqual(expect.objectContaining({ is_premium: false, plan_status: 'canceled', plan_period_end: null, stripe_subscription_id: null }));
  });

  it('does nothing for a user that no longer exists', async () => {
    await expect(service.execute(change(999_999, 1, true))).resolves.toBeUndefined();
  });
});
