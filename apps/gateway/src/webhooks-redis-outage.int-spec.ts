import { runPlinkCommand } from '@plink/billing';
import { ControlledRedis, WebhookReceiver } from '@plink/testing';
import { identityUsers } from './testing/operator-users';
import { startTestGateway, type TestGateway } from './testing/test-gateway';

/**
 * Leads keep coming on a Pro page with a webhook while Redis is killed and started again (AOF, as deployed):
 * every lead the page accepted reaches the receiver, once per webhook-id (a receiver drops repeats by that id).
 */
describe('webhooks through a Redis outage', () => {
  let redis: ControlledRedis;
  let receiver: WebhookReceiver;
  let gateway: TestGateway;

  beforeAll(async () => {
    redis = await ControlledRedis.start({ appendOnly: true });
    receiver = await WebhookReceiver.start();
    gateway = await startTestGateway({
      REDIS_URL: redis.url,
      PLINK_WORKERS: 'all',
      AUTH_RATE_LIMIT_PER_MINUTE: '0',
      LEAD_RATE_LIMIT_PER_MINUTE: '0',
      WEBHOOK_ALLOW_PRIVATE_NETWORKS: 'true',
    });
  }, 60_000);

  afterAll(async () => {
    await gateway?.close();
    await receiver?.stop();
    await redis?.destroy();
  });

  it('delivers every accepted lead exactly once by webhook-id', async () => {
    const browser = gateway.browser();
    const tag = Date.now().toString(36);
    const who = { username: `outage_${tag}`, email: `outage.${tag}@example.com`, password: 'secret-password' };
    const registered = await browser.post('/api/register', who);
    await gateway.db.query('update identity.users set is_verified = true where id = $1', [registered.body.id]);
    expect(await runPlinkCommand(['grant-pro', who.email], { out: () => undefined, err: () => undefined, env: gateway.env.vars }, identityUsers)).toBe(0);
    for (let i = 0; i < 200 && !(await browser.get('/api/user')).body.isPremium; i++) await new Promise((r) => setTimeout(r, 50));
    const slug = `outage-${tag}`;
    expect((await browser.post('/api/pages', { slug, webhookUrl: `${receiver.origin}/hooks/outage` })).status).toBe(201);

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
      const answers = await Promise.all(emails.map((email) => gateway.browser().post(`/api/page/${slug}/submit`, { email, consent: true })));
      answers.forEach((a, i) => a.status === 200 && accepted.push(emails[i]));
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
    console.log(`${accepted.length} leads accepted, ${byId.size} webhook-ids received (${received} requests) in ${Date.now() - started} ms`);
    expect(byId.size).toBe(accepted.length);
    // Each lead under one id, and every accepted lead there.
    expect(new Set(byId.values()).size).toBe(accepted.length);
    expect([...byId.values()].sort()).toEqual([...accepted].sort());
  }, 120_000);
});
