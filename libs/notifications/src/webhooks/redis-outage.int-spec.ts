import { ControlledRedis, WebhookReceiver, eventually } from '@plink/testing';
import { NotificationsTestApp } from '../testing/notifications-test-app';

/**
 * Leads' deliveries keep coming for a Pro page with a webhook while Redis is killed and started again (AOF,
 * as deployed): every delivery the leads service recorded reaches the receiver, once per webhook-id (a
 * receiver drops repeats by that id). The deliveries are recorded as the leads service records them, in its
 * transaction through the outbox; the notifications worker and the outbox relay ride out the outage.
 *
 * @run-alone: it kills its Redis under a backlog and waits for the catch-up.
 */
describe('webhooks through a Redis outage', () => {
  let redis: ControlledRedis;
  let receiver: WebhookReceiver;
  let t: NotificationsTestApp;

  beforeAll(async () => {
    redis = await ControlledRedis.start({ appendOnly: true });
    receiver = await WebhookReceiver.start();
    t = await NotificationsTestApp.start({ REDIS_URL: redis.url });
  }, 60_000);

  afterAll(async () => {
    await t?.close();
    await receiver?.stop();
    await redis?.destroy();
  });

  it('delivers every recorded lead exactly once by webhook-id', async () => {
    const owner = await t.creator();
    const page = await t.pages.create(owner.id, `${receiver.origin}/hooks/outage`);
    await eventually(async () => (await t.db.query('select 1 from notifications.webhook_endpoints where page_id = $1', [page.id])).rowCount === 1);

    // 20 leads every 100 ms for 8 s; Redis is down from 2 s to 6 s.
    const accepted: string[] = [];
    const started = Date.now();
    let killed = false;
    let restarted = false;
    for (let round = 0; Date.now() - started < 8_000; round++) {
      const elapsed = Date.now() - started;
      if (!killed && elapsed >= 2_000) {
        killed = true;
        await redis.stop();
      }
      if (killed && !restarted && elapsed >= 6_000) {
        restarted = true;
        await redis.start();
      }
      const emails = Array.from({ length: 20 }, (_, i) => `lead-${round}-${i}@example.com`);
      const recorded = await t.deliverLeads(page, emails).then(
        () => true,
        () => false,
      );
      if (recorded) accepted.push(...emails);
      await new Promise((r) => setTimeout(r, 100));
    }
    if (!restarted) await redis.start();
    expect(killed).toBe(true);
    expect(accepted.length).toBeGreaterThan(500);

    const deadline = Date.now() + 60_000;
    const idsOf = () => new Map(receiver.on('/hooks/outage').map((h) => [String(h.headers['webhook-id']), JSON.parse(h.body).data.email as string]));
    while (idsOf().size < accepted.length && Date.now() < deadline) await new Promise((r) => setTimeout(r, 200));
    const byId = idsOf();
    const received = receiver.on('/hooks/outage').length;
    console.log(`${accepted.length} leads recorded, ${byId.size} webhook-ids received (${received} requests) in ${Date.now() - started} ms`);
    expect(byId.size).toBe(accepted.length);
    // Each lead under one id, and every recorded lead there.
    expect(new Set(byId.values()).size).toBe(accepted.length);
    expect([...byId.values()].sort()).toEqual([...accepted].sort());
  }, 120_000);
});
