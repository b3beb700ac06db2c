import { QueueName, type JobPayload } from '@plink/contracts';
import { SmtpCatcher, eventually } from '@plink/testing';
import { NotificationsTestApp } from '../testing/notifications-test-app';

/**
 * The file e-mails of many sign-ups reach the e-mail queue together (one `email.file-delivery-many` job per relay
 * pass, up to 50). Every visitor still gets exactly one e-mail: when the mail server refuses some of a group's
 * messages for a moment, the retry sends only those, never again the ones it took.
 */
describe('notifications: file e-mails sent in groups', () => {
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
    page: { id: 9_101, title: 'Photo Guide', fileUrl: 'https://files.example/guide.pdf' },
    senderName: 'Ana Lima',
  });

  it('relays the file e-mails of one transaction as one job and sends each once, the refused ones again', async () => {
    const visitors = Array.from({ length: 6 }, (_, i) => `visitor-${i}@example.com`);
    // The server answers the next two messages with 451 (try again later): two of the six fail on the first try.
    smtp.failNext(2);
    await t.inTransaction((em, outbox) => {
      visitors.forEach((to, i) => outbox.record(em, 'email.file-delivery', fileEmail(200 + i, to)));
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
    expect(await t.jobs(QueueName.Email, 'email.file-delivery', ['completed'])).toHaveLength(6);
  });
});
