import { QueueName, type JobPayload } from '@plink/contracts';
import { seal } from '@plink/crypto';
import { SmtpCatcher, eventually } from '@plink/testing';
import { NotificationsTestApp } from '../testing/notifications-test-app';

/**
 * A lead its creator deleted (the leads service's 'leads.deleted') gets no more e-mail about its sign-up: neither
 * the file e-mail nor the double opt-in confirmation, when those jobs run after the erasure (still queued, or
 * waiting for their retry while the mail server was away). Other leads' e-mails go out as usual.
 */
describe('notifications: e-mails of deleted leads are not sent', () => {
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

  const fileEmail = (leadId: number, to: string): JobPayload<'email.file-delivery'> => ({
    v: 1,
    leadId,
    to,
    page: { id: 9_001, title: 'Photo Guide', fileUrl: 'https://files.example/guide.pdf' },
    senderName: 'Ana Lima',
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
      ];
      return done.length === 4;
    });
    expect(smtp.mailsTo('forget-me@example.com')).toEqual([]);
  });
});
