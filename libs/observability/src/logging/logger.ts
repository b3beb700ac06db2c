import { AsyncLocalStorage } from 'node:async_hooks';
import { randomUUID } from 'node:crypto';
import pino, { type Logger, type LoggerOptions } from 'pino';

export type { Logger } from 'pino';

const EMAIL_PATTERN = /[A-Za-z0-9._%+-]+@[A-Za-z0-9.-]+\.[A-Za-z]{2,}/g;

/** Fields that hold a secret: their value never reaches a log line ('[redacted]'). */
const SECRET_FIELDS = [
  'password',
  'currentPassword',
  'newPassword',
  'confirmPassword',
  'passwordHash',
  'token',
  'sealedToken',
  'verificationToken',
  'resetPasswordToken',
  'sessionId',
  'secret',
  'cookie',
  'authorization',
  'set-cookie',
];
/**
 * Fields that would name a visitor's device: a lead's proof of consent keeps them in the database only
 * ('[redacted]' should they ever be logged).
 */
const VISITOR_FIELDS = ['signupIp', 'signupUserAgent', 'userAgent', 'user-agent'];
/** Fields that hold an e-mail address ('[email]'). */
const EMAIL_FIELDS = ['email', 'to'];

/**
 * pino's `redact` paths: each field above at the top of a log object and up to two objects deep
 * (`{ user: { email } }`, `{ headers: { cookie } }`, `{ job: { data: { token } } }`).
 */
export const REDACTED_PATHS = [...SECRET_FIELDS, ...VISITOR_FIELDS, ...EMAIL_FIELDS].flatMap((field) => {
  const key = /^[A-Za-z_$][\w$]*$/.test(field) ? `.${field}` : `["${field}"]`;
  return [key.slice(key.startsWith('.') ? 1 : 0), `*${key}`, `*.*${key}`];
});

function censor(value: unknown, path: string[]): unknown {
  if (!EMAIL_FIELDS.includes(path[path.length - 1])) return '[redacted]';
  return value ? '[email]' : value;
}

/** A token as it may appear in a log line: its first 10 characters at most. */
export function maskToken(token: string | undefined | null): string {
  if (!token) return '';
  return token.length <= 10 ? `${token.slice(0, Math.max(0, token.length - 1))}…` : `${token.slice(0, 10)}…`;
}

/** Replaces e-mail addresses in a text. */
export function scrubText(text: string): string {
  return text.replace(EMAIL_PATTERN, '[email]');
}

/**
 * Deep copy of a log object with the e-mail addresses inside its texts replaced (a message, an error, a
 * note that quotes an address): redact removes whole fields by name, not addresses inside other texts.
 */
export function scrubValue(value: unknown, depth = 0): unknown {
  if (typeof value === 'string') return scrubText(value);
  if (value === null || typeof value !== 'object' || depth > 6) return value;
  if (value instanceof Error) {
    return { type: value.name, message: scrubText(value.message), stack: value.stack && scrubText(value.stack) };
  }
  if (Array.isArray(value)) return value.map((v) => scrubValue(v, depth + 1));
  const out: Record<string, unknown> = {};
  for (const [key, v] of Object.entries(value)) out[key] = scrubValue(v, depth + 1);
  return out;
}

/*
 * The correlation context: one AsyncLocalStorage for HTTP requests (entered by the HTTP edge), queue jobs
 * (ContractWorker, with the id the job carries from the request that recorded it), and operator commands, so
 * a lead's log lines share one id from the submit call to the e-mail job. Redaction is pino's own `redact`.
 *
 * Why not nestjs-pino (5.2, read for this): its request context comes from pino-http as a Nest middleware,
 * which builds two child loggers per request (one serialising the request) whether or not the request logs,
 * where this context makes its child logger on the first line logged (a visitor's submit logs nothing); its
 * root logger is fixed by the first app made in the process (tests make many, with their own destinations);
 * and jobs would still need a context of their own (its `runInContext`), so it would not replace this code,
 * only sit beside it for HTTP requests.
 */
interface LogContext {
  correlationId: string;
  bindings: Record<string, unknown>;
  /** The child logger, made on first use (most requests of the hot path never log). */
  logger?: Logger;
}

const storage = new AsyncLocalStorage<LogContext>();
// Until initLogger runs (and in unit tests, which never call it): quiet under jest.
let root: Logger = pino({ level: process.env.JEST_WORKER_ID ? 'silent' : (process.env.LOG_LEVEL ?? 'info') });

/** Creates the process-wide logger: JSON in production, readable lines in development. */
export function initLogger(options: { level: string; pretty: boolean; name?: string; destination?: pino.DestinationStream }): Logger {
  const base: LoggerOptions = {
    level: options.level,
    name: options.name,
    base: { pid: process.pid },
    redact: { paths: REDACTED_PATHS, censor },
    formatters: {
      log: (object) => scrubValue(object) as Record<string, unknown>,
    },
    hooks: {
      logMethod(args, method) {
        const cleaned = args.map((a) => (typeof a === 'string' ? scrubText(a) : a)) as typeof args;
        return method.apply(this, cleaned);
      },
    },
    serializers: { err: (err: unknown) => scrubValue(err) },
  };
  root = options.pretty
    ? pino({
        ...base,
        transport: { target: 'pino-pretty', options: { colorize: true, translateTime: 'HH:MM:ss.l', ignore: 'pid,hostname', singleLine: true } },
      })
    : pino(base, options.destination);
  return root;
}

/** The logger of the current request or job (carrying its correlation id), or the root logger. */
export function getLogger(): Logger {
  const context = storage.getStore();
  if (!context) return root;
  context.logger ??= root.child({ correlationId: context.correlationId, ...context.bindings });
  return context.logger;
}

export function currentCorrelationId(): string | undefined {
  return storage.getStore()?.correlationId;
}

/** Runs `fn` with a child logger that carries `correlationId` on every line. */
export function runWithCorrelation<T>(correlationId: string | undefined, fn: () => T, bindings: Record<string, unknown> = {}): T {
  const id = correlationId && /^[A-Za-z0-9._:-]{1,100}$/.test(correlationId) ? correlationId : randomUUID();
  return storage.run({ correlationId: id, bindings }, fn);
}
