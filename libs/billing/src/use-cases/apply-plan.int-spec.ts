import { Module, type INestApplicationContext } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { QueueName, type JobEnvelope } from '@plink/contracts';
import { PlatformModule } from '@plink/platform';
import { JobQueue } from '@plink/queue';
import { loadConfig } from '@plink/config';
import { createTestEnvironment, type TestEnvironment } from '@plink/testing';
import { BillingCoreModule } from '../billing.module';
import { BILLING_SCHEMA } from '../billing.schema';
import { ApplyPlanService } from './apply-plan.service';

/**
 * applyPlan on a real database and Redis: the jobs it publishes (read back from the queues, where no worker
 * takes them in this test), and its guards against stale and no-longer-wanted changes.
 */
describe('applyPlan', () => {
  let env: TestEnvironment;
  let app: INestApplicationContext;
  let plans: ApplyPlanService;
  let jobs: JobQueue;

  beforeAll(async () => {
    env = await createTestEnvironment();
    const config = loadConfig(env.vars);
    @Module({ imports: [PlatformModule.forRoot({ config, schemas: [BILLING_SCHEMA] }), BillingCoreModule] })
    class TestModule {}
    app = await NestFactory.createApplicationContext(TestModule, { logger: false });
    await app.init();
    plans = app.get(ApplyPlanService);
    jobs = app.get(JobQueue);
  });

  afterAll(async () => {
    await app?.close();
    await env?.cleanup();
  });

  /** The payloads of the waiting `name` jobs of a queue for this user, oldest first, once there are `count` (or after 5 s). */
  async function queued(queue: QueueName, name: string, userId: number, count: number): Promise<Record<string, unknown>[]> {
    const deadline = Date.now() + 5_000;
    for (;;) {
      const waiting = await jobs.queue(queue).getJobs(['waiting', 'delayed', 'prioritized']);
      const mine = waiting
        .map((job) => ({ name: job.name, ts: job.timestamp, payload: (job.data as JobEnvelope).payload as Record<string, unknown> }))
        .filter((job) => job.name === name && job.payload.userId === userId)
        .sort((a, b) => a.ts - b.ts);
      if (mine.length >= count || Date.now() > deadline) return mine.map((job) => ({ job: job.name, ...job.payload }));
      await new Promise((r) => setTimeout(r, 50));
    }
  }
  /** The plan changes published, as identity's queue has them (pages and leads get the same, each on its own). */
  const planChanges = (userId: number, count: number) => queued(QueueName.Identity, 'plan.changed', userId, count);
  /** The account e-mails recorded (with identity, which addresses them), as [e-mail, content]. */
  const accountEmails = async (userId: number, count: number) =>
    (await queued(QueueName.Identity, 'identity.account-email', userId, count)).map((j) => [j.email, j.content]);

  it('publishes the plan to identity, pages and leads at once, and the welcome e-mail when Pro starts; only the plan when nothing flips', async () => {
    const periodEnd = new Date('2031-01-01T00:00:00Z');
    const result = await plans.applyPlan(101, { status: 'trialing', source: 'stripe', trialEnd: periodEnd, stripeCustomerId: 'cus_101', trialUsed: true });
    expect(result).toEqual(expect.objectContaining({ isPremium: true, wasPremium: false, applied: true }));
    const identity = await planChanges(101, 1);
    expect(identity).toEqual([
      expect.objectContaining({
        job: 'plan.changed',
        version: 1,
        isPremium: true,
        planStatus: 'trialing',
        periodEnd: periodEnd.toISOString(),
        stripeCustomerId: 'cus_101',
        stripeSubscriptionId: null,
      }),
    ]);
    // One hop to every copy: the same message on the pages and leads queues, in the same transaction.
    expect(await queued(QueueName.Pages, 'plan.changed', 101, 1)).toEqual(identity);
    expect(await queued(QueueName.Leads, 'plan.changed', 101, 1)).toEqual(identity);
    expect(await accountEmails(101, 1)).toEqual([['email.pro-started', { until: periodEnd.toISOString(), trial: true }]]);

    await plans.applyPlan(101, { status: 'active', source: 'stripe', currentPeriodEnd: periodEnd });
    expect((await planChanges(101, 2)).map((j) => [j.planStatus, j.version])).toEqual([
      ['trialing', 1],
      ['active', 2],
    ]);
    expect(await accountEmails(101, 2)).toHaveLength(1);
  });

  it('ignores a change older than the last one applied (events out of order)', async () => {
    const newer = new Date('2026-11-23T12:00:00Z');
    const older = new Date('2026-11-23T11:00:00Z');
    expect((await plans.applyPlan(102, { status: 'active', source: 'stripe' }, { eventAt: newer })).isPremium).toBe(true);
    const stale = await plans.applyPlan(102, { status: 'canceled', source: 'stripe' }, { eventAt: older });
    expect(stale).toEqual(expect.objectContaining({ applied: false, isPremium: true }));
    const later = await plans.applyPlan(102, { status: 'canceled', source: 'stripe' }, { eventAt: new Date(newer.getTime() + 1) });
    expect(later).toEqual(expect.objectContaining({ applied: true, isPremium: false, wasPremium: true }));
    expect((await accountEmails(102, 2)).map(([email]) => email)).toEqual(['email.pro-started', 'email.pro-ended']);
    // The stale change published nothing: identity got the first and the last change only.
    expect((await planChanges(102, 3)).map((j) => j.isPremium)).toEqual([true, false]);
  });

  it('serialises concurrent changes of one user: one welcome e-mail however many grants race', async () => {
    const results = await Promise.all(Array.from({ length: 5 }, () => plans.applyPlan(103, { status: 'active', source: 'operator' })));
    expect(results.filter((r) => !r.wasPremium)).toHaveLength(1);
    expect(await accountEmails(103, 2)).toHaveLength(1);
    expect(await planChanges(103, 5)).toHaveLength(5);
  });
});
