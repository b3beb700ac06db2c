import { Writable } from 'node:stream';
import type { Job } from 'bullmq';
import { QueueName, type JobEnvelope, type JobPayload } from '@plink/contracts';
import { JobQueue } from '@plink/queue';
import { initLogger } from '@plink/observability';
import { eventually, WebhookReceiver } from '@plink/testing';
import { MuteReceiver } from '../testing/mute-receiver';
import { NotificationsTestApp } from '../testing/notifications-test-app';

/**
 * Hook subscriptions share the process's attempts as the page webhooks do: one creator's hook target hangs
 * while their page gets a flood of leads; another creator's hook deliveries keep arriving within the second the
 * page webhooks' test allows (the notifications service's worker, real PostgreSQL and Redis; the leads'
 * `hook.deliver` jobs recorded as the leads service records them).
 *
 * @run-alone: it bounds the other creator's latency (≤ 1 s) under the flood it makes itself.
 */
describe('hook subscriptions: one target that hangs does not hold up the others', () => {
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

  it("another creator's leads reach their hook within a second while a hanging hook target is flooded; the flood's leads wait, none lost", async () => {
    const floodedOwner = await t.creator();
    const flooded = await t.pages.create(floodedOwner.id, null);
    const hanging = await t.subscribe(floodedOwner.id, `${mute.origin}/hooks/never-answers`);
    const otherOwner = await t.creator();
    const other = await t.pages.create(otherOwner.id, null);
    const otherHook = await t.subscribe(otherOwner.id, `${receiver.origin}/hooks/other`, other.id);

    // 200 leads on the page whose hook target never answers.
    for (let batch = 0; batch < 4; batch++) {
      await t.deliverHookLeads(flooded, Array.from({ length: 50 }, (_, i) => `flood-${batch * 50 + i}@example.com`));
    }

    // The other creator's leads, one every 0.7 s for 14 s: across the flood's first attempts timing out (10 s).
    const sent = new Map<string, number>();
    for (let i = 0; i < 20; i++) {
      const email = `other-${i}@example.com`;
      sent.set(email, Date.now());
      await t.deliverHookLeads(other, [email]);
      await new Promise((r) => setTimeout(r, 700));
    }
    await eventually(async () => receiver.on('/hooks/other').length >= sent.size, 30_000);
    const latencies = receiver
      .on('/hooks/other')
      .map((hook) => hook.at - sent.get(JSON.parse(hook.body).data.email as string)!)
      .sort((a, b) => a - b);
    console.log(`other creator's hook, delivery recorded → received: p50 ${latencies[9]} ms, max ${latencies.at(-1)} ms; hanging target got ${mute.requests} attempts`);
    expect(latencies.at(-1)).toBeLessThanOrEqual(1_000);
    // Each of the other creator's leads once.
    expect(new Set(receiver.on('/hooks/other').map((h) => h.headers['webhook-id'])).size).toBe(20);
    expect(receiver.on('/hooks/other')).toHaveLength(20);

    // The hanging target got a few attempts at a time, then was parked: the rest did not go out.
    expect(mute.requests).toBeGreaterThan(0);
    expect(mute.requests).toBeLessThanOrEqual(8);
    // The operator is told which hook's target is parked, and until when.
    const parked = logLines.filter((line) => String(line.msg).startsWith('hook target parked'));
    expect(parked).toEqual([
      expect.objectContaining({ level: 40, hookId: hanging.id, ownerId: floodedOwner.id, host: new URL(mute.origin).host, timeouts: 3, until: expect.any(String) }),
    ]);
    expect(logLines.filter((line) => String(line.msg).includes('parked') && line.hookId === otherHook.id)).toEqual([]);
    // Its log holds only the attempts made (timeouts, to be retried), none failed for good.
    const messages = (await t.db.query<{ status: string; attempts: { error: string }[] }>('select status, attempts from notifications.hook_messages where hook_id = $1', [hanging.id])).rows;
    expect(messages.length).toBeLessThanOrEqual(mute.requests);
    for (const message of messages) {
      expect(message.status).toBe('failing');
      expect(message.attempts.map((a) => a.error)).toEqual(['timeout after 10 s']);
    }
    // Nothing lost: every one of the flood's leads is still in a delivery job, waiting its turn.
    const queue = t.app.get(JobQueue).queue(QueueName.Webhooks);
    const jobs = (await queue.getJobs(['waiting', 'active', 'delayed', 'prioritized'])) as Job<JobEnvelope>[];
    const waitingLeads = new Set(
      jobs.flatMap((job) => {
        const payload = job.data.payload as JobPayload<'hook.deliver-many'> | JobPayload<'hook.deliver'>;
        const members = 'jobs' in payload ? payload.jobs.map((m) => m.payload) : [payload];
        return members.filter((m) => m.pageId === flooded.id).map((m) => m.leadId);
      }),
    );
    expect(waitingLeads.size).toBe(200);
  }, 90_000);
});
