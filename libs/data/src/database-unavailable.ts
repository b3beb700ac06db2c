/**
 * SQLSTATEs PostgreSQL answers when it cannot serve a connection at all (as opposed to refusing a statement):
 * class 08 (connection exception), 57P01 (admin shutdown: a restart, pg_terminate_backend), 57P02 (crash
 * shutdown), 57P03 (cannot connect now: starting up, shutting down, in recovery), 53300 (too many connections).
 */
const UNAVAILABLE_STATES = new Set(['57P01', '57P02', '57P03', '53300']);

/** Socket errors of a database host that is away (restarting, rescheduled, its name not yet resolvable). */
const SOCKET_CODES = new Set(['ECONNREFUSED', 'ECONNRESET', 'ETIMEDOUT', 'EPIPE', 'EHOSTUNREACH', 'ENETUNREACH', 'ENOTFOUND', 'EAI_AGAIN']);

/** node-postgres's own words for a connection that broke or never came (they carry no code). */
const CONNECTION_MESSAGES = [
  'Connection terminated',
  'connection is closed',
  'Client has encountered a connection error and is not queryable',
  'Client was closed and is not queryable',
  'timeout exceeded when trying to connect',
  'Connection terminated due to connection timeout',
];

/**
 * Whether a database call failed because PostgreSQL could not be reached or dropped the connection (a
 * restart, a failover, a full pool of a busy server): the request may be tried again in a moment, so the
 * API answers 503 with Retry-After rather than 500. A statement PostgreSQL refused (a constraint, a syntax
 * error) is not one. MikroORM's DriverException keeps the driver's `code`.
 */
export function isDatabaseUnavailableError(err: unknown): boolean {
  if (!(err instanceof Error)) return false;
  const code = (err as { code?: unknown }).code;
  if (typeof code === 'string' && (code.startsWith('08') || UNAVAILABLE_STATES.has(code) || SOCKET_CODES.has(code))) return true;
  if (err.name === 'ConnectionException') return true;
  if (CONNECTION_MESSAGES.some((m) => err.message.includes(m))) return true;
  // An error wrapped once (an AggregateError of a failed connect, an error with a cause).
  const inner = (err as { cause?: unknown }).cause ?? (err as { errors?: unknown[] }).errors?.[0];
  return inner !== undefined && inner !== err && isDatabaseUnavailableError(inner);
}
