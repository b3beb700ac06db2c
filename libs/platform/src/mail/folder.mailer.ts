import { mkdir, writeFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import nodemailer, { type Transporter } from 'nodemailer';
import { Mailer, type MailMessage } from './mail.port';

/**
 * Without SMTP_URL: each message is written as an .eml file to the outbox folder and its links are
 * printed on the console, so a newcomer can verify an account with no mail server. Development only:
 * those console lines carry whole links (tokens included) on purpose; the JSON logs never do.
 */
export class FolderMailer extends Mailer {
  private readonly transport: Transporter;
  private readonly dir: string;

  constructor(
    dir: string,
    private readonly from: string,
    private readonly print: (line: string) => void = (line) => process.stdout.write(`${line}\n`),
  ) {
    super();
    this.dir = resolve(dir);
    this.transport = nodemailer.createTransport({ streamTransport: true, buffer: true, newline: 'unix' });
  }

  async send(message: MailMessage): Promise<void> {
    const info = await this.transport.sendMail({ from: this.from, ...message });
    await mkdir(this.dir, { recursive: true });
    const stamp = new Date().toISOString().replace(/[:.]/g, '-');
    const slug = message.subject.toLowerCase().replace(/[^a-z0-9]+/g, '-').replace(/^-|-$/g, '').slice(0, 40);
    const file = join(this.dir, `${stamp}-${slug}.eml`);
    await writeFile(file, info.message as Buffer);
    const links = [...new Set(message.text.match(/https?:\/\/[^\s<>"]+/g) ?? [])];
    this.print(`\n[mail] "${message.subject}" written to ${file}`);
    for (const link of links) this.print(`[mail]   link: ${link}`);
  }
}
