import { Webhook } from 'standardwebhooks';
import type { LeadCreatedEvent } from '@plink/contracts';
import { WebhookReceiver, eventually, type ReceivedWebhook } from '@plink/testing';
import { NotificationsTestApp, type Creator, type TestPage } from '../testing/notifications-test-app';
import { HooksRepository } from './hooks.repository';

/**
 * Hook subscriptions (`/api/v1/hooks`) delivered by the notifications service's worker (real PostgreSQL and
 * Redis, a receiver on 127.0.0.1): the leads' `hook.deliver` jobs as the leads service records them.
 */
describe('hook subscriptions: delivery', () => {
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

  /** A Pro creator's page (no page webhook: its leads go to the creator's hooks). */
  async function creatorWithPage(): Promise<{ owner: Creator; page: TestPage }> {
    const owner = await t.creator();
    return { owner, page: await t.pages.create(owner.id, null) };
  }
  const verified = (hit: ReceivedWebhook, secret: string) => new Webhook(secret).verify(hit.body, hit.headers as Record<string, string>) as LeadCreatedEvent;
  const messagesOf = async (hookId: number) =>
    (await t.db.query<{ lead_id: number; status: string; attempts: unknown[] }>('select lead_id, status, attempts from notifications.hook_messages where hook_id = $1', [hookId])).rows;

  it('attempts each matching hook in the lead job itself; a retry sends only the messages that did not end', async () => {
    const { page } = await creatorWithPage();
    const other = await t.pages.create(page.ownerId, null);
    const steady = await t.subscribe(page.ownerId, `${receiver.origin}/one-stage/steady`);
    const flaky = await t.subscribe(page.ownerId, `${receiver.origin}/one-stage/flaky`, page.id);
    const elsewhere = await t.subscribe(page.ownerId, `${receiver.origin}/one-stage/elsewhere`, other.id);
    receiver.answer('/one-stage/flaky', { status: 503 });

    const [lead] = await t.deliverHookLeads(page, ['both@example.com']);
    // The first retry comes 5 s (±10 %) after the failed attempt.
    await eventually(async () => receiver.on('/one-stage/flaky').length >= 2, 15_000);
    await eventually(async () => (await messagesOf(flaky.id))[0]?.status === 'delivered');
    await new Promise((r) => setTimeout(r, 500));

    // The steady target got the lead once, the flaky one twice with the same webhook-id, the other page's hook none.
    expect(receiver.on('/one-stage/steady')).toHaveLength(1);
    expect(verified(receiver.on('/one-stage/steady')[0], steady.secret).data.email).toBe('both@example.com');
    const [first, second] = receiver.on('/one-stage/flaky');
    expect(second.headers['webhook-id']).toBe(first.headers['webhook-id']);
    expect(second.headers['webhook-id']).not.toBe(receiver.on('/one-stage/steady')[0].headers['webhook-id']);
    expect(verified(second, flaky.secret).data.email).toBe('both@example.com');
    expect(receiver.on('/one-stage/elsewhere')).toEqual([]);
    // Each message logged with its attempts (Settings → Automations).
    expect(await messagesOf(steady.id)).toEqual([{ lead_id: lead.leadId, status: 'delivered', attempts: [expect.objectContaining({ status: 200 })] }]);
    expect((await messagesOf(flaky.id))[0].attempts).toEqual([expect.objectContaining({ status: 503 }), expect.objectContaining({ status: 200 })]);
    expect(await messagesOf(elsewhere.id)).toEqual([]);
  }, 30_000);

  it('sends many leads of a group to every hook, each once, and ends a subscription that answers 410 Gone', async () => {
    const { page } = await creatorWithPage();
    const kept = await t.subscribe(page.ownerId, `${receiver.origin}/group/kept`);
    const gone = await t.subscribe(page.ownerId, `${receiver.origin}/group/gone`);
    receiver.answer('/group/gone', ...Array.from({ length: 30 }, () => ({ status: 410 })));
    const emails = Array.from({ length: 30 }, (_, i) => `group-${i}@example.com`);
    await t.deliverHookLeads(page, emails);
    await eventually(async () => receiver.on('/group/kept').length >= 30, 15_000);
    await eventually(async () => (await t.db.query('select 1 from notifications.hooks where id = $1', [gone.id])).rowCount === 0);
    expect(receiver.on('/group/kept').map((hit) => verified(hit, kept.secret).data.email).sort()).toEqual([...emails].sort());
    expect(new Set(receiver.on('/group/kept').map((hit) => hit.headers['webhook-id'])).size).toBe(30);
    // Its log went with it; a later lead goes to the kept hook only.
    expect(await messagesOf(gone.id)).toEqual([]);
    const gotGone = receiver.on('/group/gone').length;
    await t.deliverHookLeads(page, ['later@example.com']);
    await eventually(async () => receiver.on('/group/kept').length === 31);
    await new Promise((r) => setTimeout(r, 500));
    expect(receiver.on('/group/gone')).toHaveLength(gotGone);
  }, 30_000);

  it('never sends a lead its creator deleted, queued or waiting for its retry', async () => {
    const { page } = await creatorWithPage();
    const hook = await t.subscribe(page.ownerId, `${receiver.origin}/erased`);
    const leadsDeleted = (leadIds: number[]) => t.inTransaction((em, outbox) => outbox.publish(em, 'leads.deleted', { v: 1, pageId: page.id, leadIds }));
    const erased = async () => (await t.db.query('select lead_id from notifications.erased_leads where page_id = $1', [page.id])).rows.map((r) => Number(r.lead_id));

    // Waiting for its retry.
    receiver.answer('/erased', { status: 500 });
    const [retried] = await t.deliverHookLeads(page, ['retried@example.com']);
    await eventually(async () => (await messagesOf(hook.id))[0]?.status === 'failing');
    await leadsDeleted([retried.leadId]);
    await eventually(async () => (await erased()).includes(retried.leadId));
    expect(await messagesOf(hook.id)).toEqual([]);
    // Queued after it was deleted.
    const [gone, kept] = [{ ...t.leadDelivery(page, 'gone@example.com'), ownerId: page.ownerId }, { ...t.leadDelivery(page, 'kept@example.com'), ownerId: page.ownerId }];
    await leadsDeleted([gone.leadId]);
    await eventually(async () => (await erased()).includes(gone.leadId));
    await t.inTransaction((em, outbox) => {
      outbox.record(em, 'hook.deliver', gone);
      outbox.record(em, 'hook.deliver', kept);
    });
    await eventually(async () => receiver.on('/erased').some((hit) => JSON.parse(hit.body).data.email === 'kept@example.com'));
    // The retry comes 5 s after the failed attempt: it sends nothing.
    await new Promise((r) => setTimeout(r, 7_000));
    expect(receiver.on('/erased').map((hit) => JSON.parse(hit.body).data.email as string)).toEqual(['retried@example.com', 'kept@example.com']);
    expect((await messagesOf(hook.id)).map((m) => Number(m.lead_id))).toEqual([kept.leadId]);
  }, 30_000);

  it('signs with the new and the old secret for 24 hours after a rotation, then with the new one alone', async () => {
    const { owner, page } = await creatorWithPage();
    const hook = await t.subscribe(page.ownerId, `${receiver.origin}/rotated`);
    const other = await t.creator();
    await expect(t.app.get(HooksRepository).rotateSecret(other.id, hook.id)).rejects.toMatchObject({ status: 404 });
    const rotated = await t.app.get(HooksRepository).rotateSecret(owner.id, hook.id);
    expect(rotated).toEqual({ id: hook.id, event: 'lead.created', target_url: hook.target_url, page_id: null, secret: expect.stringMatching(/^whsec_/) });
    expect(rotated.secret).not.toBe(hook.secret);

    await t.deliverHookLeads(page, ['during@example.com']);
    await eventually(async () => receiver.on('/rotated').length === 1);
    const during = receiver.on('/rotated')[0];
    expect(String(during.headers['webhook-signature']).split(' ')).toHaveLength(2);
    expect(verified(during, rotated.secret).data.email).toBe('during@example.com');
    expect(verified(during, hook.secret).data.email).toBe('during@example.com');

    // A day later: the old secret signs no more.
    await t.db.query("update notifications.hooks set previous_secret_until = now() - interval '1 second' where id = $1", [hook.id]);
    await t.deliverHookLeads(page, ['after@example.com']);
    await eventually(async () => receiver.on('/rotated').length === 2);
    const after = receiver.on('/rotated')[1];
    expect(String(after.headers['webhook-signature']).split(' ')).toHaveLength(1);
    expect(verified(after, rotated.secret).data.email).toBe('after@example.com');
    expect(() => verified(after, hook.secret)).toThrow();
  });
});
