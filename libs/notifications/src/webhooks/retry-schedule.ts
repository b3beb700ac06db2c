import type { BackoffStrategy } from 'bullmq';

/**
 * When a failed webhook attempt is tried again: after the first attempt (at once) come 5 s, 5 min, 30 min,
 * 2 h, 5 h, 10 h and 10 h (about 27 h and a half in all; 8 attempts, QUEUE_SETTINGS' `attempts`).
 */
export const RETRY_DELAYS_MS = [5_000, 300_000, 1_800_000, 7_200_000, 18_000_000, 36_000_000, 36_000_000] as const;
/** Each delay varies by up to ±10 %, so a receiver's recovery is not met by every message at once. */
export const RETRY_JITTER = 0.1;
/** A receiver's `Retry-After` is followed up to this. */
export const MAX_RETRY_AFTER_MS = 3_600_000;

/**
 * The wait before the next attempt after `failedAttempts` attempts failed: the receiver's Retry-After when it
 * gave one (at most an hour, at least a second), else the schedule with jitter.
 */
export function retryDelayMs(failedAttempts: number, retryAfterMs: number | null = null, random: () => number = Math.random): number {
  if (retryAfterMs !== null) return Math.max(1_000, Math.min(retryAfterMs, MAX_RETRY_AFTER_MS));
  const base = RETRY_DELAYS_MS[Math.min(Math.max(failedAttempts, 1), RETRY_DELAYS_MS.length) - 1];
  return Math.round(base * (1 - RETRY_JITTER + 2 * RETRY_JITTER * random()));
}

/** `Retry-After` in milliseconds (seconds, or an HTTP date), or null when absent or unreadable. */
export function parseRetryAfter(value: string | undefined, now = Date.now()): number | null {
  if (!value) return null;
  const text = value.trim();
  if (/^\d{1,10}$/.test(text)) return Number(text) * 1000;
  const at = Date.parse(text);
  return Number.isNaN(at) ? null : Math.max(0, at - now);
}

/** An attempt failed in a way worth trying again; the worker decided the wait (shown as the next attempt's time). */
export class RetryLaterError extends Error {
  constructor(
    message: string,
    readonly delayMs: number,
  ) {
    super(message);
    this.name = 'RetryLaterError';
  }
}

/**
 * The webhooks worker's BullMQ backoff strategy (its `settings.backoffStrategy`): the delay the handler chose,
 * else the schedule (e.g. a job that failed on a database error).
 */
export const webhookBackoff: BackoffStrategy = (attemptsMade, _type, err) =>
  err instanceof RetryLaterError ? err.delayMs : retryDelayMs(attemptsMade);
