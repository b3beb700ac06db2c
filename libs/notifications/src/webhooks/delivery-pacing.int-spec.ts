import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { WebhookReceiver, eventually } from '@plink/testing';
import { NotificationsTestApp, type TestPage } from '../testing/notifications-test-app';

/**
 * Captures first: while the host's CPU is short, the notifications service's webhook and hook attempts slow
 * down to WEBHOOK_YIELD_RATE, and once it is free again the ones that waited leave at once, none lost (its worker,
 * real PostgreSQL and Redis, a real receiver). The host's pressure is a file in the kernel's format
 * (CPU_PRESSURE_FILE) that the test advances as a saturated host's does: every microsecond waited.
 */
describe('webhook deliveries give way to captures while the CPU is short', () => {
  let t: NotificationsTestApp;
  let receiver: WebhookReceiver;
  let dir: string;
  let file: string;
  let busy: NodeJS.Timeout | undefined;
  let waitedUs = 0;

  const writePressure = () =>
    writeFileSync(file, `some avg10=0.00 avg60=0.00 avg300=0.00 total=${Math.round(waitedUs)}\nfull avg10=0.00 avg60=0.00 avg300=0.00 total=0\n`);
  /** From now on the host reads as saturated: some task waits all the time. */
  const saturate = () => {
    let last = performance.now();
    busy = setInterval(() => {
      const now = performance.now();
      waitedUs += (now - last) * 1000;
      last = now;
      writePressure();
    }, 25);
  };
  const release = () => {
    clearInterval(busy);
    busy = undefined;
  };

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'plink-pressure-'));
    file = join(dir, 'cpu');
    writePressure();
    receiver = await WebhookReceiver.start();
    t = await NotificationsTestApp.start({ CPU_PRESSURE_FILE: file, WEBHOOK_YIELD_PRESSURE: '0.5', WEBHOOK_YIELD_RATE: '1' });
  });

  afterAll(async () => {
    release();
    await t?.close();
    await receiver?.stop();
    rmSync(dir, { recursive: true, force: true });
  });

  async function pageWithWebhook(path: string): Promise<TestPage> {
    const owner = await t.creator();
    const page = await t.pages.create(owner.id, `${receiver.origin}${path}`);
    await eventually(async () => (await t.db.query('select enabled from notifications.webhook_endpoints where page_id = $1', [page.id])).rows[0]?.enabled === true);
    return page;
  }

  it('page webhooks and hooks go at the low rate while the CPU is short, then what waited leaves at once, each once', async () => {
    const page = await pageWithWebhook('/hooks/paced');
    await t.subscribe(page.ownerId, `${receiver.origin}/hooks/paced-hook`, page.id);
    const arrived = () => [...receiver.on('/hooks/paced'), ...receiver.on('/hooks/paced-hook')];
    saturate();
    await new Promise((r) => setTimeout(r, 600)); // the service has read the pressure (every 250 ms)

    // One attempt a second (a second's worth, 1, at once): 15 page-webhook leads and 5 hook leads would take
    // about 20 s; a host with the CPU free sends them all within a moment.
    const recorded = Date.now();
    await t.deliverLeads(page, Array.from({ length: 15 }, (_, i) => `webhook-${i}@example.com`));
    await t.deliverHookLeads(page, Array.from({ length: 5 }, (_, i) => `hook-${i}@example.com`));
    await eventually(async () => arrived().length >= 1, 10_000);
    await new Promise((r) => setTimeout(r, 1_500));
    const whileShort = arrived().length;
    const seconds = (Date.now() - recorded) / 1000;
    expect(whileShort).toBeLessThanOrEqual(2 + Math.floor(seconds));
    expect(whileShort).toBeLessThan(20);

    // The CPU is free again: the attempts that waited leave now, not when their turn would have come.
    release();
    const freed = Date.now();
    await eventually(async () => arrived().length === 20, 10_000);
    console.log(`${whileShort} of 20 sent in ${seconds.toFixed(1)} s while the CPU was short; the other ${20 - whileShort} within ${Date.now() - freed} ms once it was free`);
    expect(new Set(arrived().map((hook) => hook.headers['webhook-id'])).size).toBe(20);
    expect(receiver.on('/hooks/paced')).toHaveLength(15);
    expect(receiver.on('/hooks/paced-hook')).toHaveLength(5);
  });

  it('sends at full speed while the CPU is free', async () => {
    const page = await pageWithWebhook('/hooks/free');
    await t.deliverLeads(page, Array.from({ length: 30 }, (_, i) => `free-${i}@example.com`));
    // At one a second this would take half a minute.
    await eventually(async () => receiver.on('/hooks/free').length === 30, 10_000);
  });
});
