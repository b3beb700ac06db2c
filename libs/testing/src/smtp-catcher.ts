import { simpleParser, type ParsedMail } from 'mailparser';
import { SMTPServer } from 'smtp-server';

export interface CaughtMail {
  /** Envelope recipients, lower-cased. */
  to: string[];
  from: string;
  subject: string;
  text: string;
  html: string;
  /** The whole message as it arrived. */
  raw: string;
}

/**
 * A real SMTP server inside the test: nodemailer talks SMTP to it, the test reads what arrived.
 * `failNext(n)` makes the next n messages fail with a 451 (a temporary failure), to show retries; `delayMs`
 * makes every message wait before it is accepted (a slow relay), to catch jobs in the middle of their work.
 */
export class SmtpCatcher {
  readonly mails: CaughtMail[] = [];
  /** Connection errors the server saw, e.g. a sender killed in the middle of a message. */
  readonly connectionErrors: Error[] = [];
  private failures = 0;
  /** Milliseconds each message waits before it is accepted (a slow relay), 0 by default. */
  delayMs = 0;
  private waiters: { predicate: (m: CaughtMail) => boolean; resolve: (m: CaughtMail) => void }[] = [];
  private server!: SMTPServer;
  port = 0;

  private constructor() {}

  static async start(): Promise<SmtpCatcher> {
    const catcher = new SmtpCatcher();
    const server = new SMTPServer({
      authOptional: true,
      disabledCommands: ['STARTTLS'],
      logger: false,
      onData(stream, session, callback) {
        const chunks: Buffer[] = [];
        stream.on('data', (c: Buffer) => chunks.push(c));
        stream.on('end', () => void accept());
        const accept = async () => {
          if (catcher.delayMs > 0) await new Promise((r) => setTimeout(r, catcher.delayMs));
          if (catcher.failures > 0) {
            catcher.failures -= 1;
            const err = new Error('Try again later') as Error & { responseCode: number };
            err.responseCode = 451;
            callback(err);
            return;
          }
          const raw = Buffer.concat(chunks).toString('utf8');
          void simpleParser(raw).then((parsed: ParsedMail) => {
            const mail: CaughtMail = {
              to: session.envelope.rcptTo.map((r) => r.address.toLowerCase()),
              from: session.envelope.mailFrom ? session.envelope.mailFrom.address : '',
              subject: parsed.subject ?? '',
              text: parsed.text ?? '',
              html: typeof parsed.html === 'string' ? parsed.html : '',
              raw,
            };
            catcher.mails.push(mail);
            catcher.waiters = catcher.waiters.filter((w) => {
              if (!w.predicate(mail)) return true;
              w.resolve(mail);
              return false;
            });
            callback();
          });
        };
      },
    });
    // A client that dies mid-message (a worker under SIGKILL) resets its connection; smtp-server reports that
    // as an 'error' event, which without a listener would crash the test process instead of being one lost
    // message, as it is for a real relay.
    server.on('error', (err: Error) => catcher.connectionErrors.push(err));
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    catcher.server = server;
    catcher.port = (server.server.address() as { port: number }).port;
    return catcher;
  }

  get url(): string {
    return `smtp://127.0.0.1:${this.port}`;
  }

  failNext(count: number): void {
    this.failures = count;
  }

  /** Resolves with the first mail (already caught or arriving within `timeoutMs`) that matches. */
  waitFor(predicate: (m: CaughtMail) => boolean, timeoutMs = 15_000): Promise<CaughtMail> {
    const found = this.mails.find(predicate);
    if (found) return Promise.resolve(found);
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`no matching mail within ${timeoutMs} ms (caught ${this.mails.length})`)), timeoutMs);
      this.waiters.push({
        predicate,
        resolve: (m) => {
          clearTimeout(timer);
          resolve(m);
        },
      });
    });
  }

  mailsTo(address: string): CaughtMail[] {
    return this.mails.filter((m) => m.to.includes(address.toLowerCase()));
  }

  async stop(): Promise<void> {
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }
}

/** The first link in a mail's text that starts with `prefix`. */
export function linkIn(mail: CaughtMail, prefix: string): string {
  const link = (mail.text.match(/https?:\/\/\S+/g) ?? []).find((l) => l.startsWith(prefix));
  if (!link) throw new Error(`no link starting with ${prefix} in mail "${mail.subject}"`);
  return link;
}
