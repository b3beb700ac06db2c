import { getLogger } from './logger';

/** How long one source stays quiet about one cause after saying it. */
export const THROTTLE_INTERVAL_MS = 10_000;
/** Keys remembered at most (causes carry ports or ids; a burst of new ones must not grow memory). */
const MAX_KEYS = 500;

interface Entry {
  last: number;
  suppressed: number;
}

const seen = new Map<string, Entry>();

/** What an error is about, for grouping repeats: its code if it has one, else its message without numbers. */
export function causeOf(err: unknown): string {
  const e = err as { code?: unknown; message?: unknown } | null;
  if (e && typeof e.code === 'string' && e.code) return e.code;
  const message = e && typeof e.message === 'string' ? e.message : String(err);
  return message.replace(/\d+/g, '#').slice(0, 200);
}

/**
 * Logs a warning that may repeat many times a second (a connection that keeps failing, a retry loop):
 * at most one line per source and cause per {@link THROTTLE_INTERVAL_MS}; the next line says how many
 * were left out meanwhile (`suppressed`). Returns whether this call wrote a line.
 */
export function warnThrottled(source: string, err: unknown, message: string, fields: Record<string, unknown> = {}, now = Date.now()): boolean {
  const key = `${source}\u0000${causeOf(err)}`;
  const entry = seen.get(key);
  if (entry && now - entry.last < THROTTLE_INTERVAL_MS) {
    entry.suppressed += 1;
    return false;
  }
  const suppressed = entry?.suppressed ?? 0;
  seen.delete(key);
  if (seen.size >= MAX_KEYS) seen.delete(seen.keys().next().value!);
  seen.set(key, { last: now, suppressed: 0 });
  const errMessage = err instanceof Error ? err.message : err === undefined ? undefined : String(err);
  getLogger().warn({ source, ...fields, ...(errMessage !== undefined ? { err: { message: errMessage } } : {}), ...(suppressed ? { suppressed } : {}) }, message);
  return true;
}

/** Forgets every source's history (tests). */
export function resetThrottledLog(): void {
  seen.clear();
}
