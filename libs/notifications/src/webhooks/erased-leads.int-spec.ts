import { WebhookReceiver, eventually } from '@plink/testing';
import { NotificationsTestApp, type Creator, type TestPage } from '../testing/notifications-test-app';

/**
 * A lead its creator deleted (the leads service's 'leads.deleted') is not sent to the page's webhook any more:
 * neither a delivery still queued nor one waiting for its retry, and its logged message goes (it holds the address).
 */
describe('webhooks: deliveries of deleted leads are dropped', () => {
  let t: NotificationsTestApp;
  let receiver: WebhookReceiver;

  beforeAll(async () => {
    receiver = await WebhookReceiver.start();
    t = await NotificationsTestApp.start();
  });

  afterAll(async () => {
    await t?.close();
    await receiver?.stop();
  });

  async function pageWithWebhook(path: string): Promise<{ owner: Creator; page: TestPage }> {
    const owner = await t.creator();
    const page = await t.pages.create(owner.id, `${receiver.origin}${path}`);
    await eventually(async () => (await t.db.query('select enabled from notifications.webhook_endpoints where page_id = $1', [page.id])).rows[0]?.enabled === true);
    return { owner, page };
  }
  const leadsDeleted = (pageId: number, leadIds: number[]) => t.inTransaction((em, outbox) => outbox.publish(em, 'leads.deleted', { v: 1, pageId, leadIds }));
  const erased = async (pageId: number) => (await t.db.query('select lead_id from notifications.erased_leads where page_id = $1 order by lead_id', [pageId])).rows.map((r) => Number(r.lead_id));

  it('drops a delivery waiting for its retry, and the message from the log', async () => {
    const { owner, page } = await pageWithWebhook('/hooks/erase-retry');
    receiver.answer('/hooks/erase-retry', { status: 500 });
    const lead = await t.deliverLead(page, 'forget-me@example.com');
    await eventually(async () => (await t.webhookOf(owner, page.id)).deliveries[0]?.status === 'failing');

    await leadsDeleted(page.id, [lead.leadId]);
    await eventually(async () => (await erased(page.id)).length === 1);
    expect((await t.webhookOf(owner, page.id)).deliveries).toEqual([]);
    // The retry comes after 5 s: it sends nothing.
    await new Promise((r) => setTimeout(r, 8_000));
    expect(receiver.on('/hooks/erase-retry')).toHaveLength(1);
    expect((await t.webhookOf(owner, page.id)).deliveries).toEqual([]);
  }, 30_000);

  it('drops a delivery still queued, and sends the other leads', async () => {
    const { page } = await pageWithWebhook('/hooks/erase-queued');
    const [gone, kept] = [t.leadDelivery(page, 'gone@example.com'), t.leadDelivery(page, 'kept@example.com')];
    // Deleted before its delivery runs (the erasure is applied first).
    await leadsDeleted(page.id, [gone.leadId]);
    await eventually(async () => (await erased(page.id)).includes(gone.leadId));
    await t.inTransaction((em, outbox) => {
      outbox.record(em, 'webhook.deliver', gone);
      outbox.record(em, 'webhook.deliver', kept);
    });
    const hooks = await eventually(async () => receiver.on('/hooks/erase-queued').length >= 1 && receiver.on('/hooks/erase-queued'));
    await new Promise((r) => setTimeout(r, 1_000));
    expect(receiver.on('/hooks/erase-queued')).toHaveLength(1);
    expect(JSON.parse(hooks[0].body).data.email).toBe('kept@example.com');
  });
});
