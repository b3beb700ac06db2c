import type { RedisOptions as WorkerConnectionOptions } from 'bullmq';
import type { RedisOptions } from 'ioredis';

/**
 * How every Redis connection of a Plink process behaves, by its role (BullMQ's "connections" and
 * "going to production" guides):
 *
 * - Workers block and reconnect: `maxRetriesPerRequest: null` (BullMQ requires it for its blocking
 *   connections) and the offline queue on, so while Redis is away their commands wait for the reconnect
 *   instead of failing at once. A worker whose commands fail at once spins in BullMQ's fetch loop (it
 *   retries at once on errors it does not take for connection errors, such as "Stream isn't writeable"),
 *   burning a core and the log.
 * - Everything a request waits on fails fast: producers (the outbox relay's queues), the shared command
 *   client (sessions, rate limits, views) and subscribers have the offline queue off and a command
 *   timeout, so a request gets an answer (503, or a fallback) within about a second instead of hanging.
 *
 * Both reconnect with the same bounded back-off: quickly at first, then every 2 s, so Redis coming back
 * is noticed within 2 s and an outage costs a few connection attempts a second, not a busy loop.
 */
export function reconnectDelay(times: number): number {
  return Math.min(times * 250, 2_000);
}

/** A command of the fail-fast clients that gets no answer within this is given up (a half-open link). */
export const COMMAND_TIMEOUT_MS = 1_500;

export function failFastRedisOptions(connectionName: string): RedisOptions {
  return {
    connectionName,
    enableOfflineQueue: false,
    // Commands written just before the link dropped are given up at the first reconnect attempt.
    maxRetriesPerRequest: 0,
    commandTimeout: COMMAND_TIMEOUT_MS,
    retryStrategy: reconnectDelay,
  };
}

export function workerRedisOptions(): WorkerConnectionOptions {
  return {
    enableOfflineQueue: true,
    maxRetriesPerRequest: null,
    retryStrategy: reconnectDelay,
  };
}

/** The answer to a call that needs Redis while it is away. */
export const SERVICE_UNAVAILABLE_MESSAGE = 'The service is temporarily unavailable. Please try again in a moment.';

/** Thrown where an operation needs Redis and Redis does not answer; the API answers 503. */
export class RedisUnavailableError extends Error {
  constructor(cause?: unknown) {
    super(SERVICE_UNAVAILABLE_MESSAGE, { cause });
    this.name = 'RedisUnavailableError';
  }
}

/** The errors ioredis gives when it cannot reach Redis (as opposed to an error Redis itself replied). */
const CONNECTION_MESSAGES = [
  "Stream isn't writeable",
  'Connection is closed',
  'Command timed out',
  'max retries per request',
  'ECONNREFUSED',
  'ECONNRESET',
  'ETIMEDOUT',
  'EPIPE',
];

export function isRedisUnavailableError(err: unknown): boolean {
  if (err instanceof RedisUnavailableError) return true;
  if (!(err instanceof Error)) return false;
  const code = (err as { code?: unknown }).code;
  if (code === 'ECONNREFUSED' || code === 'ECONNRESET' || code === 'ETIMEDOUT' || code === 'EPIPE') return true;
  if (err.name === 'MaxRetriesPerRequestError') return true;
  return CONNECTION_MESSAGES.some((m) => err.message.includes(m));
}

/** Runs a Redis call; a connection failure becomes a {@link RedisUnavailableError} (other errors pass). */
export async function needsRedis<T>(call: Promise<T>): Promise<T> {
  try {
    return await call;
  } catch (err) {
    throw isRedisUnavailableError(err) ? new RedisUnavailableError(err) : err;
  }
}
