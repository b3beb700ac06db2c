import nodemailer, { type Transporter } from 'nodemailer';
import { QUEUE_SETTINGS, QueueName } from '@plink/contracts';
import { Mailer, nodemailerMessage, type MailMessage } from './mail.port';

/**
 * Sends over SMTP_URL (smtp://user:pass@host:port or smtps://…) through a small pool of kept-open
 * connections: a new connection (and TLS handshake) per message held a burst of lead e-mails to a few dozen
 * a second. The pool is as large as the e-mail queue's concurrency, so every job a worker runs at once has a
 * connection. Options in the URL's query (e.g. `?pool=false`) still win.
 */
export class SmtpMailer extends Mailer {
  private readonly transport: Transporter;

  constructor(
    smtpUrl: string,
    private readonly from: string,
    connections = QUEUE_SETTINGS[QueueName.Email].concurrency,
  ) {
    super();
    this.transport = nodemailer.createTransport({ url: smtpUrl, pool: true, maxConnections: connections });
  }

  async send(message: MailMessage): Promise<void> {
    await this.transport.sendMail(nodemailerMessage(this.from, message));
  }

  override close(): void {
    this.transport.close();
  }
}
