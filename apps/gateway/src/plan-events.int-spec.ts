import { ApplyPlanService, runPlinkCommand } from '@plink/billing';
import type { TestBrowser } from './testing/http-client';
import { identityUsers } from './testing/operator-users';
import { WEBHOOK_TEST_SETTINGS, startTestGateway, type TestGateway } from './testing/test-gateway';
import { eventually, WebhookReceiver } from '@plink/testing';

/**
 * The owner's plan reaches every copy one hop from billing ('plan.changed'), and a lead goes to the page's
 * webhook exactly when the owner was on Pro in the plan in force at its capture. "In force" is the owner's
 * plan version the capture read from the leads service's copy, which each lead keeps (`plan_version`): a
 * lead is delivered if and only if billing's plan at that version was Pro, however fast the plan flips.
 *
 * @run-alone: it bounds how late a plan change reaches every copy (p99 ≤ 1 s).
 */
describe('plan changes, one hop from billing to every copy', () => {
  let gateway: TestGateway;
  let receiver: WebhookReceiver;
  let plans: ApplyPlanService;

  beforeAll(async () => {
    receiver = await WebhookReceiver.start();
    gateway = await startTestGateway(WEBHOOK_TEST_SETTINGS);
    plans = gateway.app.get(ApplyPlanService, { strict: false });
  });

  afterAll(async () => {
    await gateway?.close();
    await receiver?.stop();
  });

  let n = 0;
  /** A verified creator with one page whose webhook goes to `path` of the receiver; Pro through billing. */
  async function creatorWithPage(path: string): Promise<{ id: number; slug: string; browser: TestBrowser; version: number }> {
    n += 1;
    const tag = `${Date.now().toString(36)}${n}`;
    const browser = gateway.browser();
    const registered = await browser.post('/api/register', { username: `flip_${tag}`, email: `flip.${tag}@example.com`, password: 'secret-password' });
    expect(registered.status).toBe(201);
    const id = registered.body.id as number;
    await gateway.db.query('update identity.users set is_verified = true where id = $1', [id]);
    const granted = await plans.applyPlan(id, { status: 'active', source: 'operator' });
    await eventually(async () => (await browser.get('/api/user')).body.isPremium === true);
    const created = await browser.post('/api/pages', { slug: `flip-${tag}`, title: 'Flip', webhookUrl: `${receiver.origin}${path}` });
    expect(created.status).toBe(201);
    return { id, slug: created.body.slug as string, browser, version: granted.account.planVersion };
  }

  const one = async <T>(sql: string, values: unknown[]): Promise<T | undefined> => (await gateway.db.query(sql, values)).rows[0] as T | undefined;

  it('updates every copy of a changed plan within 1 s (p99 over 100 changes at rest)', async () => {
    const owner = await creatorWithPage('/hooks/at-rest');
    const copies = {
      identity: 'select plan_version as v from identity.users where id = $1',
      pages: 'select plan_version as v from pages.owners where user_id = $1',
      leads: 'select version as v from leads.owner_plans where owner_id = $1',
    };
    const latencies: number[] = [];
    for (let i = 0; i < 100; i += 1) {
      const applied = await plans.applyPlan(owner.id, i % 2 === 0 ? { status: 'canceled', source: 'operator' } : { status: 'active', source: 'operator' });
      const committed = Date.now();
      const version = applied.account.planVersion;
      const reached = await Promise.all(
        Object.values(copies).map(async (sql) => {
          await eventually(async () => Number((await one<{ v: number }>(sql, [owner.id]))?.v) >= version, 10_000, 5);
          return Date.now() - committed;
        }),
      );
      latencies.push(Math.max(...reached));
    }
    latencies.sort((a, b) => a - b);
    const p50 = latencies[49];
    const p99 = latencies[98];
    console.log(`plan change → last copy updated (identity, pages, leads): p50 ${p50} ms, p99 ${p99} ms, max ${latencies[99]} ms`);
    expect(p99).toBeLessThanOrEqual(1_000);
  }, 180_000);

  it("returns from the operator's revoke-pro and grant-pro only once every copy has the change", async () => {
    const owner = await creatorWithPage('/hooks/operator');
    const { rows } = await gateway.db.query<{ email: string }>('select email from identity.users where id = $1', [owner.id]);
    const copies = async () =>
      (
        await gateway.db.query(
          `select (select plan_version from billing.accounts where user_id = $1) as billing,
                  (select plan_version from identity.users where id = $1) as identity,
                  (select plan_version from pages.owners where user_id = $1) as pages,
                  (select version from leads.owner_plans where owner_id = $1) as leads,
                  (select is_pro from leads.owner_plans where owner_id = $1) as is_pro`,
          [owner.id],
        )
      ).rows[0];
    for (const [command, pro] of [['revoke-pro', false], ['grant-pro', true], ['revoke-pro', false]] as const) {
      const io = { out: () => undefined, err: () => undefined, env: gateway.env.vars };
      expect(await runPlinkCommand([command, rows[0].email], io, identityUsers)).toBe(0);
      // At the moment the command returns, not eventually.
      const now = await copies();
      expect(now).toEqual({ billing: now.billing, identity: now.billing, pages: now.billing, leads: now.billing, is_pro: pro });
    }
  }, 60_000);

  it('sends a lead to the webhook exactly when the plan its capture read was Pro, through 200 grant/revoke flips', async () => {
    const owner = await creatorWithPage('/hooks/flips');
    // Billing's plan at each version: the test's record of what was in force.
    const proAt = new Map<number, boolean>([[owner.version, true]]);
    let flipping = true;
    const submitted: string[] = [];
    const submitter = async (lane: number) => {
      for (let i = 0; flipping; i += 1) {
        const email = `lane${lane}.lead${i}@visitors.example`;
        const res = await gateway.browser().post(`/api/page/${owner.slug}/submit`, { email, consent: true });
        expect(res.status).toBe(200);
        submitted.push(email);
      }
    };
    const lanes = [1, 2, 3, 4].map(submitter);
    for (let flip = 0; flip < 200; flip += 1) {
      const pro = flip % 2 === 1;
      const applied = await plans.applyPlan(owner.id, pro ? { status: 'active', source: 'operator' } : { status: 'canceled', source: 'operator' });
      proAt.set(applied.account.planVersion, applied.isPremium);
      await new Promise((r) => setTimeout(r, 5 + Math.floor(Math.random() * 20)));
    }
    flipping = false;
    await Promise.all(lanes);

    const { rows } = await gateway.db.query<{ email: string; plan_version: number | null }>(
      `select l.email, l.plan_version from leads.leads l join leads.page_facts f on f.page_id = l.page_id where f.slug = $1`,
      [owner.slug],
    );
    expect(rows).toHaveLength(submitted.length);
    const owed = rows.filter((r) => proAt.get(Number(r.plan_version)) === true).map((r) => r.email).sort();
    const unknown = rows.filter((r) => !proAt.has(Number(r.plan_version)));
    expect(unknown).toEqual([]);
    // Both plans were in force for some leads, or the test proved nothing.
    expect(owed.length).toBeGreaterThan(0);
    expect(owed.length).toBeLessThan(rows.length);

    const received = () => [...new Set(receiver.on('/hooks/flips').map((hook) => JSON.parse(hook.body).data.email as string))].sort();
    await eventually(async () => received().length >= owed.length, 60_000, 100);
    // Late deliveries would show up here: a moment more, then exactly the owed ones, each once.
    await new Promise((r) => setTimeout(r, 1_000));
    const ids = receiver.on('/hooks/flips').map((hook) => hook.headers['webhook-id']);
    console.log(`${rows.length} leads through 200 plan flips: ${owed.length} captured under Pro and delivered, ${rows.length - owed.length} under Free and not sent`);
    expect(received()).toEqual(owed);
    expect(new Set(ids).size).toBe(owed.length);
  }, 180_000);
});
