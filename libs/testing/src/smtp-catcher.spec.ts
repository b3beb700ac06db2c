import { connect } from 'node:net';
import { SmtpCatcher } from './smtp-catcher';

/**
 * The drain test SIGKILLs an e-mail worker while it is sending: its connection is reset in the middle of a
 * message. A real relay shrugs that off; the catcher must too, or the whole test file dies with ECONNRESET
 * after every assertion passed (as it once did in CI).
 */
describe('SmtpCatcher', () => {
  it('records, and survives, a sender resetting its connection mid-message', async () => {
    const smtp = await SmtpCatcher.start();
    try {
      smtp.delayMs = 100;
      await new Promise<void>((resolve) => {
        const socket = connect(smtp.port, '127.0.0.1');
        const lines = ['EHLO sender', 'MAIL FROM:<a@example.com>', 'RCPT TO:<b@example.com>', 'DATA', 'Subject: cut\r\n\r\nhalf a'];
        let next = 0;
        socket.on('data', () => {
          if (next < lines.length) socket.write(`${lines[next++]}\r\n`);
          if (next === lines.length) setTimeout(() => socket.resetAndDestroy(), 50);
        });
        socket.on('close', () => resolve());
        socket.on('error', () => undefined);
      });
      await eventually(() => smtp.connectionErrors.length > 0);
      expect(smtp.connectionErrors.map((e) => (e as NodeJS.ErrnoException).code)).toContain('ECONNRESET');
      expect(smtp.mails).toEqual([]);
    } finally {
      await smtp.stop();
    }
  });
});

async function eventually(check: () => boolean): Promise<void> {
  const deadline = Date.now() + 5_000;
  while (!check() && Date.now() < deadline) await new Promise((r) => setTimeout(r, 20));
}
