import { QueueName } from '@plink/contracts';
import { JobQueue } from '@plink/queue';
import { WebhookSecretOpener } from './webhook-secret-opener';
import { eventually } from '@plink/testing';
import { NotificationsTestApp } from '../testing/notifications-test-app';

/**
 * The notifications service delivers webhooks from its own copy of each page's endpoint (it reads no page):
 * the pages service tells it every change ('webhook-endpoint.changed', published here as the pages service
 * publishes it). The copy is read in the notifications schema, as the delivery worker reads it.
 */
describe("notifications' copy of the webhook endpoints", () => {
  let t: NotificationsTestApp;

  beforeAll(async () => {
    t = await NotificationsTestApp.start();
  });

  afterAll(async () => {
    await t?.close();
  });

  interface CopyRow {
    owner_id: number;
    url: string | null;
    secret: string | null;
    previous_secret: string | null;
    enabled: boolean;
    deleted: boolean;
    changed_at: Date;
  }

  const copyOf = async (pageId: number): Promise<CopyRow | undefined> =>
    (await t.db.query('select * from notifications.webhook_endpoints where page_id = $1', [pageId])).rows[0];

  it('follows a URL change (the panel shows the new URL at once), a rotation and the page deletion', async () => {
    const owner = await t.creator();
    const page = await t.pages.create(owner.id, 'https://hooks.example/first');

    const first = await eventually(async () => (await copyOf(page.id))?.url === 'https://hooks.example/first' && (await copyOf(page.id)));
    expect(first).toMatchObject({ owner_id: owner.id, enabled: true, deleted: false, previous_secret: null });
    // The secret is copied sealed, as the pages service stores it, and opens to the one the owner is shown.
    const panel = await t.webhookOf(owner, page.id);
    expect(first.secret).not.toContain('whsec_');
    expect(t.app.get(WebhookSecretOpener, { strict: false }).open(first.secret!)).toBe(panel.secret);

    // A URL change: the owner's panel answers it right away (from the pages service, not from the copy),
    // before the change has reached the copy; the copy follows.
    await t.pages.change(page, { url: 'https://hooks.example/second' }, { publish: false });
    expect((await t.webhookOf(owner, page.id)).url).toBe('https://hooks.example/second');
    expect((await copyOf(page.id))?.url).toBe('https://hooks.example/first');
    await t.pages.publish(page);
    await eventually(async () => (await copyOf(page.id))?.url === 'https://hooks.example/second');

    // A rotation: the new secret, and the former one beside it.
    await t.pages.rotateSecret(page);
    const rotated = await eventually(async () => {
      const row = await copyOf(page.id);
      return row?.previous_secret === first.secret && row;
    });
    expect(rotated.secret).not.toBe(first.secret);

    // The page is deleted: its endpoint is gone from the copy, and a change older than the deletion that
    // arrives late (a retried job) does not bring it back.
    const before = (await copyOf(page.id))!;
    await t.pages.remove(page);
    const deleted = await eventually(async () => {
      const row = await copyOf(page.id);
      return row?.deleted && row;
    });
    expect(deleted).toMatchObject({ url: null, secret: null });
    const late = {
      v: 1,
      pageId: page.id,
      ownerId: owner.id,
      at: new Date(before.changed_at).toISOString(),
      endpoint: { url: 'https://hooks.example/second', secret: before.secret, previousSecret: null, previousSecretUntil: null, enabled: true, enabledAt: null },
    };
    const jobs = t.app.get(JobQueue, { strict: false });
    await jobs.addMany([{ name: 'webhook-endpoint.changed', queue: QueueName.Webhooks, jobId: `late-${page.id}`, envelope: { payload: late as never, meta: { correlationId: 'late', recordedAt: new Date().toISOString() } } }]);
    await eventually(async () => (await (await jobs.queue(QueueName.Webhooks).getJob(`late-${page.id}`))?.getState()) === 'completed');
    expect(await copyOf(page.id)).toMatchObject({ deleted: true, url: null });
  }, 60_000);
});
