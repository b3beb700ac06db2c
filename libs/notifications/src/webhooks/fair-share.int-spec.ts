import { Writable } from 'node:stream';
import type { Job } from 'bullmq';
import { QueueName, type JobEnvelope, type JobPayload } from '@plink/contracts';
import { JobQueue } from '@plink/queue';
import { initLogger } from '@plink/observability';
import { eventually, WebhookReceiver } from '@plink/testing';
import { MuteReceiver } from '../testing/mute-receiver';
import { NotificationsTestApp, type Creator, type TestPage } from '../testing/notifications-test-app';

/**
 * One creator's receiver hangs while their page gets a flood of leads; another creator's webhooks keep
 * arriving within a second (the notifications service's worker, real PostgreSQL and Redis; the leads'
 * deliveries recorded as the leads service records them).
 *
 * @run-alone: it bounds the other creator's latency (≤ 1 s) under the flood it makes itself.
 */
describe('webhooks: one receiver that hangs does not hold up the others', () => {
  let t: NotificationsTestApp;
  let mute: MuteReceiver;
  let receiver: WebhookReceiver;
  /** The process's log lines (JSON), as an operator reads them. */
  const logLines: Record<string, unknown>[] = [];

  beforeAll(async () => {
    const destination = new Writable({
      write(chunk: Buffer, _encoding, done) {
        for (const line of chunk.toString().split('\n').filter(Boolean)) logLines.push(JSON.parse(line) as Record<string, unknown>);
        done();
      },
    });
    initLogger({ level: 'info', pretty: false, destination });
    mute = await MuteReceiver.start();
    receiver = await WebhookReceiver.start();
    t = await NotificationsTestApp.start();
  }, 60_000);

  afterAll(async () => {
    await t?.close();
    await receiver?.stop();
    await mute?.stop();
  });

  /** A Pro creator's page with its webhook on `url`, once the delivery service's copy holds it. */
  async function proPageWithWebhook(url: string): Promise<{ owner: Creator; page: TestPage; id: number }> {
    const owner = await t.creator();
    const page = await t.pages.create(owner.id, url);
    await eventually(async () => (await t.db.query('select enabled from notifications.webhook_endpoints where page_id = $1', [page.id])).rows[0]?.enabled === true);
    return { owner, page, id: page.id };
  }

  it("another creator's leads reach their webhook within a second while a hanging receiver is flooded; the flood's leads wait, none lost", async () => {
    const flooded = await proPageWithWebhook(`${mute.origin}/hooks/never-answers`);
    const other = await proPageWithWebhook(`${receiver.origin}/hooks/other`);

    // 200 leads on the page whose receiver never answers.
    for (let batch = 0; batch < 4; batch++) {
      await t.deliverLeads(flooded.page, Array.from({ length: 50 }, (_, i) => `flood-${batch * 50 + i}@example.com`));
    }

    // The other page's leads, one every 0.7 s for 14 s: across the flood's first attempts timing out (10 s).
    const sent = new Map<string, number>();
    for (let i = 0; i < 20; i++) {
      const email = `other-${i}@example.com`;
      sent.set(email, Date.now());
      await t.deliverLead(other.page, email);
      await new Promise((r) => setTimeout(r, 700));
    }
    await eventually(async () => receiver.on('/hooks/other').length >= sent.size, 30_000);
    const latencies = receiver
      .on('/hooks/other')
      .map((hook) => hook.at - sent.get(JSON.parse(hook.body).data.email as string)!)
      .sort((a, b) => a - b);
    console.log(`other page, delivery recorded → webhook received: p50 ${latencies[9]} ms, max ${latencies.at(-1)} ms; flooded receiver got ${mute.requests} attempts`);
    expect(latencies.at(-1)).toBeLessThanOrEqual(1_000);
    // Each of the other page's leads once.
    expect(new Set(receiver.on('/hooks/other').map((h) => h.headers['webhook-id'])).size).toBe(20);
    expect(receiver.on('/hooks/other')).toHaveLength(20);

    // The hanging receiver got a few attempts at a time, then was parked: the rest did not go out.
    expect(mute.requests).toBeGreaterThan(0);
    expect(mute.requests).toBeLessThanOrEqual(8);
    // The operator is told which endpoint is parked, and until when.
    const parked = logLines.filter((line) => String(line.msg).startsWith('webhook endpoint parked'));
    expect(parked).toEqual([
      expect.objectContaining({ level: 40, pageId: flooded.id, host: new URL(mute.origin).host, timeouts: 3, until: expect.any(String) }),
    ]);
    const parkedFor = Date.parse(parked[0].until as string) - (parked[0].time as number);
    expect(parkedFor).toBeGreaterThanOrEqual(59_000);
    expect(parkedFor).toBeLessThanOrEqual(61_000);
    // Its Deliveries panel shows only the attempts made (timeouts, to be retried), none failed for good.
    const panel = await t.webhookOf(flooded.owner, flooded.id);
    expect(panel.deliveries.length).toBeLessThanOrEqual(mute.requests);
    for (const delivery of panel.deliveries) {
      expect(delivery.status).toBe('failing');
      expect(delivery.attempts.map((a) => a.error)).toEqual(['timeout after 10 s']);
    }
    // Their retry comes while the endpoint is parked: it waits again, and the panel shows it no sooner than the park's end.
    const parkEnd = Date.parse(parked[0].until as string);
    const moved = await eventually(async () => {
      const { deliveries } = await t.webhookOf(flooded.owner, flooded.id);
      return deliveries.length > 0 && deliveries.every((d) => d.nextAttemptAt && Date.parse(d.nextAttemptAt) >= parkEnd) && deliveries;
    }, 20_000);
    expect(moved.map((d) => d.attempts.length)).toEqual(moved.map(() => 1));
    expect(mute.requests).toBeLessThanOrEqual(8);
    // Nothing lost: every one of the flood's leads is still in a delivery job, waiting its turn.
    const queue = t.app.get(JobQueue).queue(QueueName.Webhooks);
    const jobs = (await queue.getJobs(['waiting', 'active', 'delayed', 'prioritized'])) as Job<JobEnvelope>[];
    const waitingLeads = new Set(
      jobs.flatMap((job) => {
        const payload = job.data.payload as JobPayload<'webhook.deliver-many'> | JobPayload<'webhook.deliver'>;
        const members = 'jobs' in payload ? payload.jobs.map((m) => m.payload) : [payload];
        return members.filter((m) => m.pageId === flooded.id).map((m) => m.leadId);
      }),
    );
    expect(waitingLeads.size).toBe(200);
  }, 90_000);
});
