import { nodemailerMessage } from '@plink/mail';
import nodemailer from 'nodemailer';
import { fileDeliveryEmail } from './file-delivery-email';

const job = {
  to: 'visitor@example.com',
  page: { id: 7, title: 'The Photo Guide', fileUrl: 'https://files.example/guide.pdf?a=1&b=2' },
  senderName: 'Ana "The Photographer" Lima',
  replyTo: 'ana@creator.example',
  subject: 'Your guide, as promised',
  bodyHtml: '<p>Hi! Read <a href="https://ana.example/tips">my tips</a> first.</p>',
  buttonColor: '#ffeb3b',
  branding: false,
};

/** The message as it leaves for the relay (headers and parts), built by nodemailer itself. */
async function wire(mail: ReturnType<typeof fileDeliveryEmail>): Promise<string> {
  const transport = nodemailer.createTransport({ streamTransport: true, buffer: true, newline: 'unix' });
  const info = await transport.sendMail(nodemailerMessage('Plink <no-reply@plink.example>', mail));
  return (info.message as Buffer).toString('utf8');
}

describe('file-delivery e-mail', () => {
  it("comes from the creator's name at the install's address, with their Reply-To and subject", async () => {
    const mail = fileDeliveryEmail('https://plink.example', job);
    expect(mail).toMatchObject({ to: 'visitor@example.com', fromName: 'Ana "The Photographer" Lima', replyTo: 'ana@creator.example', subject: 'Your guide, as promised' });
    const message = await wire(mail);
    expect(message).toContain('From: "Ana \\"The Photographer\\" Lima" <no-reply@plink.example>');
    expect(message).toContain('Reply-To: ana@creator.example');
    expect(message).toContain('Subject: Your guide, as promised');
    expect(message).toMatch(/Content-Type: text\/plain/);
    expect(message).toMatch(/Content-Type: text\/html/);
  });

  it("shows the creator's text, the file button in the page's colour and a text part with the links", () => {
    const mail = fileDeliveryEmail('https://plink.example', job);
    expect(mail.html).toContain('my tips</a> first.');
    expect(mail.html).toMatch(/href="https:\/\/files\.example\/guide\.pdf\?a=1&amp;b=2" data-file-button style="background:#ffeb3b;color:#000000/);
    expect(mail.text).toContain('Hi! Read my tips (https://ana.example/tips) first.');
    expect(mail.text).toContain('Download file: https://files.example/guide.pdf?a=1&b=2');
    expect(mail.text).not.toContain('Plink');
    expect(mail.html).not.toContain('The Plink team');
  });

  it('a job from before the delivery e-mail sends the standard one, branded, from the owner’s name at MAIL_FROM', async () => {
    const mail = fileDeliveryEmail('http://localhost:3000', {
      to: 'v@example.com',
      page: { id: 1, title: 'x', fileUrl: '/uploads/abc.pdf' },
      senderName: 'owner_name',
    });
    expect(mail.subject).toBe('Your download: x');
    expect(mail.text).toContain('http://localhost:3000/uploads/abc.pdf');
    expect(mail.text).toContain('Sent via Plink');
    expect(mail.replyTo).toBeUndefined();
    expect(await wire(mail)).toContain('From: owner_name <no-reply@plink.example>');
  });

  it('encodes a name beyond ASCII and never lets a line break into a header', async () => {
    const message = await wire(fileDeliveryEmail('https://plink.example', { ...job, senderName: 'Zoë\r\nBcc: all@example.com', subject: 'Olá\nBcc: x@example.com' }));
    const headers = message.slice(0, message.indexOf('\n\n'));
    expect(headers).not.toMatch(/^Bcc:/im);
    expect(headers).toMatch(/^From: =\?UTF-8\?/m);
  });

  it('marks a test as such in the subject', () => {
    expect(fileDeliveryEmail('https://plink.example', { ...job, test: true }).subject).toBe('[Test] Your guide, as promised');
  });
});
