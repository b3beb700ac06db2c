import { seal } from '@plink/crypto';
import { SmtpCatcher } from '@plink/testing';
import { NotificationsTestApp } from '../testing/notifications-test-app';

/**
 * The double opt-in e-mail as the e-mail worker sends it: the job the leads service records (the token sealed)
 * becomes one message, text and HTML, whose Confirm link is on the landing pages' host and carries the token.
 */
describe('notifications: the double opt-in confirmation e-mail', () => {
  let t: NotificationsTestApp;
  let smtp: SmtpCatcher;

  beforeAll(async () => {
    smtp = await SmtpCatcher.start();
    t = await NotificationsTestApp.start({ SMTP_URL: smtp.url, PUBLIC_ORIGIN: 'http://pages.plink.test' });
  });

  afterAll(async () => {
    await t?.close();
    await smtp?.stop();
  });

  it('sends the Confirm link with the token the leads service sealed, from the creator, about the page', async () => {
    const token = 'Zx8_confirm-token-0123456789abcdefghijklmnop';
    await t.inTransaction((em, outbox) =>
      outbox.record(em, 'email.lead-confirmation', {
        v: 1,
        leadId: 41,
        to: 'visitor@example.com',
        page: { id: 7, title: 'Photo Guide' },
        senderName: 'Ana Lima',
        replyTo: 'ana@creator.example',
        sealedToken: seal(t.config.sessionSecret, token),
        reminder: false,
      }),
    );
    const mail = await smtp.waitFor((m) => m.to.includes('visitor@example.com'), 15_000);
    expect(mail.subject).toBe('Please confirm your e-mail for Photo Guide');
    expect(mail.raw).toMatch(/multipart\/alternative/);
    expect(mail.raw).toContain('From: Ana Lima <');
    expect(mail.text).toContain(`Confirm: http://pages.plink.test/confirm/${token}`);
    expect(mail.html).toContain(`href="http://pages.plink.test/confirm/${token}"`);
    expect(mail.text).toContain('“Photo Guide” from Ana Lima');
  });
});
