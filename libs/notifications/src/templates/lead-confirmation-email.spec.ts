import { nodemailerMessage } from '@plink/mail';
import nodemailer from 'nodemailer';
import { leadConfirmationEmail } from './lead-confirmation-email';

const job = {
  to: 'visitor@example.com',
  page: { id: 7, title: 'The <Photo> Guide' },
  senderName: 'Ana Lima',
  replyTo: 'ana@creator.example',
  reminder: false,
};

async function wire(mail: ReturnType<typeof leadConfirmationEmail>): Promise<string> {
  const transport = nodemailer.createTransport({ streamTransport: true, buffer: true, newline: 'unix' });
  const info = await transport.sendMail(nodemailerMessage('Plink <no-reply@plink.example>', mail));
  return (info.message as Buffer).toString('utf8');
}

describe('double opt-in confirmation e-mail', () => {
  it("names the page and its creator, has one Confirm button to the landing pages' host, in text and HTML", async () => {
    const mail = leadConfirmationEmail('https://pages.example', job, 'tok_en-123');
    expect(mail).toMatchObject({ to: 'visitor@example.com', fromName: 'Ana Lima', replyTo: 'ana@creator.example', subject: 'Please confirm your e-mail for The <Photo> Guide' });
    expect(mail.text).toContain('Thanks for signing up for “The <Photo> Guide” from Ana Lima.');
    expect(mail.text).toContain('Confirm: https://pages.example/confirm/tok_en-123');
    expect(mail.html).toContain('“The &lt;Photo&gt; Guide” from Ana Lima');
    expect(mail.html.match(/>Confirm<\/a>/g)).toHaveLength(1);
    expect(mail.html).toContain('href="https://pages.example/confirm/tok_en-123"');
    const message = await wire(mail);
    expect(message).toContain('From: Ana Lima <no-reply@plink.example>');
    expect(message).toContain('Reply-To: ana@creator.example');
    expect(message).toMatch(/Content-Type: text\/plain/);
    expect(message).toMatch(/Content-Type: text\/html/);
  });

  it('says so when it is the reminder', () => {
    const mail = leadConfirmationEmail('https://pages.example', { ...job, reminder: true }, 'abc');
    expect(mail.subject).toBe('Reminder: please confirm your e-mail for The <Photo> Guide');
    expect(mail.text).toContain('two days ago, but your e-mail address is not confirmed yet.');
  });
});
