import { QueueName, type JobPayload } from '@plink/contracts';
import { seal } from '@plink/crypto';
import { SmtpCatcher, eventually } from '@plink/testing';
import { NotificationsTestApp } from '../testing/notifications-test-app';

/**
 * The e-mails a visitor gets about their sign-up, as the e-mail worker sends them:
 * - the file e-mails of many sign-ups reach the queue together (one `email.file-delivery-many` job per relay pass,
 *   up to 50), and every visitor still gets exactly one: when the mail server refuses some of a group's messages
 *   for a moment, the retry sends only those, never again the ones it took;
 * - a lead its creator deleted (the leads service's 'leads.deleted') gets no more e-mail about its sign-up: neither
 *   the file e-mail nor the double opt-in confirmation, when those jobs run after the erasure (still queued, or
 *   waiting for their retry while the mail server was away). Other leads' e-mails go out as usual.
 */
describe("notifications: a visitor's e-mails", () => {
  let t: NotificationsTestApp;
  let smtp: SmtpCatcher;

  beforeAll(async () => {
    smtp = await SmtpCatcher.start();
    t = await NotificationsTestApp.start({ SMTP_URL: smtp.url });
  });

  afterAll(async () => {
    await t?.close();
    await smtp?.stop();
  });

  const fileEmail = (leadId: number, to: string, pageId = 9_001): JobPayload<'email.file-delivery'> => ({
    v: 1,
    leadId,
    to,
    page: { id: pageId, title: 'Photo Guide', fileUrl: 'https://files.example/guide.pdf' },
    senderName: 'Ana Lima',
  });

  it('relays the file e-mails of one transaction as one job and sends each once, the refused ones again', async () => {
    const visitors = Array.from({ length: 6 }, (_, i) => `visitor-${i}@example.com`);
    // The server answers the next two messages with 451 (try again later): two of the six fail on the first try.
    smtp.failNext(2);
    await t.inTransaction((em, outbox) => {
      visitors.forEach((to, i) => outbox.record(em, 'email.file-delivery', fileEmail(200 + i, to, 9_101)));
    });

    for (const to of visitors) await smtp.waitFor((m) => m.to.includes(to), 20_000);
    const groups = await eventually(async () => {
      const done = await t.jobs(QueueName.Email, 'email.file-delivery-many', ['completed']);
      return done.length > 0 ? done : undefined;
    });
    expect(groups).toHaveLength(1);
    expect(groups[0].attemptsMade).toBe(2); // the run that two e-mails of failed, then the retry that sent those two
    expect((groups[0].data.payload as JobPayload<'email.file-delivery-many'>).jobs.map((member) => member.payload.to).sort()).toEqual([...visitors].sort());
    // A moment for any e-mail sent twice to arrive, then exactly one each.
    await new Promise((resolve) => setTimeout(resolve, 500));
    for (const to of visitors) expect(smtp.mailsTo(to)).toHaveLength(1);
  });

  it('drops the file e-mail and the confirmation of a deleted lead, and sends the others', async () => {
    await t.inTransaction((em, outbox) => outbox.publish(em, 'leads.deleted', { v: 1, pageId: 9_001, leadIds: [71] }));
    await eventually(async () => (await t.db.query('select 1 from notifications.erased_leads where page_id = 9001 and lead_id = 71')).rows.length === 1);

    await t.inTransaction((em, outbox) => {
      outbox.record(em, 'email.file-delivery', fileEmail(71, 'forget-me@example.com'));
      outbox.record(em, 'email.lead-confirmation', {
        v: 1,
        leadId: 71,
        to: 'forget-me@example.com',
        page: { id: 9_001, title: 'Photo Guide' },
        senderName: 'Ana Lima',
        replyTo: null,
        sealedToken: seal(t.config.sessionSecret, 'Zx8_confirm-token-0123456789abcdefghijklmnop'),
        reminder: false,
      });
      // The same lead id on another page is another lead: sent.
      outbox.record(em, 'email.file-delivery', fileEmail(72, 'keep-me@example.com'));
      outbox.record(em, 'email.file-delivery', { ...fileEmail(71, 'other-page@example.com'), page: { id: 9_002, title: 'Other', fileUrl: 'https://files.example/o.pdf' } });
    });

    await smtp.waitFor((m) => m.to.includes('keep-me@example.com'), 15_000);
    await smtp.waitFor((m) => m.to.includes('other-page@example.com'), 15_000);
    // Every e-mail job has run (none waits for a retry), and none reached the deleted lead.
    await eventually(async () => {
      const done = [
        ...(await t.jobs(QueueName.Email, 'email.file-delivery', ['completed'])),
        ...(await t.jobs(QueueName.Email, 'email.lead-confirmation', ['completed'])),
      ].filter((job) => (job.data.payload as { page: { id: number } }).page.id !== 9_101);
      return done.length === 4;
    });
    expect(smtp.mailsTo('forget-me@example.com')).toEqual([]);
  });
});
