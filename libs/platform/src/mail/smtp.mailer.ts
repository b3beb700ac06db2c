import nodemailer, { type Transporter } from 'nodemailer';
import { Mailer, type MailMessage } from './mail.port';

/** Sends over SMTP_URL (smtp://user:pass@host:port or smtps://…). */
export class SmtpMailer extends Mailer {
  private readonly transport: Transporter;

  constructor(
    smtpUrl: string,
    private readonly from: string,
  ) {
    super();
    this.transport = nodemailer.createTransport(smtpUrl);
  }

  async send(message: MailMessage): Promise<void> {
    await this.transport.sendMail({ from: this.from, ...message });
  }

  close(): void {
    this.transport.close();
  }
}
