/** One outgoing e-mail: always both a plain-text and an HTML part. */
export interface MailMessage {
  to: string;
  subject: string;
  text: string;
  html: string;
}

/** The mail port: SMTP in production, a folder on a fresh machine. */
export abstract class Mailer {
  /** Sends the message or throws (the calling job is then retried with backoff). */
  abstract send(message: MailMessage): Promise<void>;

  /** Lets go of what the mailer holds open (SMTP connections); called when the process stops. */
  close(): void {}
}
