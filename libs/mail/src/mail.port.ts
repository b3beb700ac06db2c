/** One outgoing e-mail: always both a plain-text and an HTML part. */
export interface MailMessage {
  to: string;
  subject: string;
  text: string;
  html: string;
  /**
   * The sender's display name (a creator's, for their visitors' e-mails): shown with the install's MAIL_FROM
   * address, never another (deliverability). Absent: MAIL_FROM as configured.
   */
  fromName?: string;
  /** Where replies go (absent: to the sender). */
  replyTo?: string;
}

/** The address of a MAIL_FROM value (`Plink <no-reply@plink.local>` or a bare address). */
export function mailFromAddress(mailFrom: string): string {
  const bracketed = /<([^<>\s]+)>\s*$/.exec(mailFrom);
  return (bracketed ? bracketed[1]! : mailFrom).trim();
}

/**
 * The nodemailer message of `message` sent from `mailFrom`: a display name goes in nodemailer's address object,
 * which quotes and encodes it (a name is never pasted into the header as text: no quotes or line breaks of
 * its own can reach it).
 */
export function nodemailerMessage(mailFrom: string, message: MailMessage) {
  const { fromName, replyTo, ...parts } = message;
  return {
    ...parts,
    from: fromName ? { name: fromName, address: mailFromAddress(mailFrom) } : mailFrom,
    ...(replyTo ? { replyTo } : {}),
  };
}

/** The mail port: SMTP in production, a folder on a fresh machine. */
export abstract class Mailer {
  /** Sends the message or throws (the calling job is then retried with backoff). */
  abstract send(message: MailMessage): Promise<void>;

  /** Lets go of what the mailer holds open (SMTP connections); called when the process stops. */
  close(): void {}
}
