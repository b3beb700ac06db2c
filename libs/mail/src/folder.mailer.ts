import { randomBytes } from 'node:crypto';
import { mkdir, rename, rm, writeFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import nodemailer, { type Transporter } from 'nodemailer';
import { Mailer, nodemailerMessage, type MailMessage } from './mail.port';

/**
 * Without SMTP_URL: each message is written as an .eml file to the outbox folder and its links are
 * printed on the console, so a newcomer can verify an account with no mail server. Development only:
 * those console lines carry whole links (tokens included) on purpose; the JSON logs never do.
 *
 * Every file gets a name of its own (time, then random bytes, then the subject for a human reading
 * the folder), so two messages with the same subject in the same millisecond never share a name.
 * A message is written under a hidden temporary name in the same folder and then renamed, so a
 * reader of the folder sees either no file or the complete message, never half of one.
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
    const info = await this.transport.sendMail(nodemailerMessage(this.from, message));
    await mkdir(this.dir, { recursive: true });
    const name = FolderMailer.fileName(message.subject);
    const file = join(this.dir, `${name}.eml`);
    const temporary = join(this.dir, `.${name}.tmp`);
    try {
      await writeFile(temporary, info.message as Buffer, { flag: 'wx' });
      await rename(temporary, file);
    } catch (err) {
      await rm(temporary, { force: true });
      throw err;
    }
    const links = [...new Set(message.text.match(/https?:\/\/[^\s<>"]+/g) ?? [])];
    this.print(`\n[mail] "${message.subject}" written to ${file}`);
    for (const link of links) this.print(`[mail]   link: ${link}`);
  }

  /** `<ISO time>-<12 random hex digits>-<subject slug>`: sorts by time, unique, readable. */
  static fileName(subject: string, now = new Date()): string {
    const stamp = now.toISOString().replace(/[:.]/g, '-');
    const slug = subject.toLowerCase().replace(/[^a-z0-9]+/g, '-').replace(/^-|-$/g, '').slice(0, 40);
    return `${stamp}-${randomBytes(6).toString('hex')}${slug ? `-${slug}` : ''}`;
  }
}
