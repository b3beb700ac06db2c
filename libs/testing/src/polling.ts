// Waiting in tests for what workers do in the background (jobs, read models, deliveries).

/** Polls until `check` answers a truthy value, and answers it; throws when `timeoutMs` passes first. */
export async function eventually<T>(check: () => Promise<T | undefined | false>, timeoutMs = 15_000, everyMs = 50): Promise<T> {
  const started = Date.now();
  for (;;) {
    const value = await check();
    if (value) return value;
    if (Date.now() - started > timeoutMs) throw new Error(`not reached within ${timeoutMs} ms`);
    await new Promise((r) => setTimeout(r, everyMs));
  }
}

/**
 * Polls `probe` until `ok` holds for its value or `timeoutMs` passes, and answers the last value either way (the
 * caller's `expect` on it then shows what it was).
 */
export async function pollUntil<T>(probe: () => Promise<T>, ok: (value: T) => boolean, timeoutMs = 10_000, everyMs = 100): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (ok(value) || Date.now() > deadline) return value;
    await new Promise((r) => setTimeout(r, everyMs));
  }
}
