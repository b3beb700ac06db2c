import type { Logger } from 'pino';

/** The default of SHUTDOWN_GRACE_MS: the longest a stop may take; then the process exits anyway. */
export const DEFAULT_SHUTDOWN_GRACE_MS = 25_000;

let drainingSince: number | null = null;

/** From now on this process is stopping: its readiness answers 503 so no new traffic or work is sent here. */
export function startDraining(): void {
  drainingSince ??= Date.now();
}

/** Whether this process is stopping (see {@link startDraining}). */
export function isDraining(): boolean {
  return drainingSince !== null;
}

/**
 * Stops the process on SIGTERM/SIGINT: readiness turns false at once ({@link startDraining}), then `close`
 * (the app's shutdown hooks: the HTTP server stops taking connections and finishes the requests under way, the
 * lead batcher writes what it took, the view counter flushes, the outbox relay finishes its pass, workers
 * finish their active jobs, connections close) runs once, and the process exits 0. Should it not finish within
 * `graceMs` (SHUTDOWN_GRACE_MS; a dependency that never answers), the process says so and exits 1, so an
 * orchestrator's stop never waits on an outage. A second signal during the stop exits at once.
 */
export function stopOnSignals(log: Logger, name: string, close: () => Promise<void>, graceMs = DEFAULT_SHUTDOWN_GRACE_MS): void {
  let stopping = false;
  const stop = (signal: string) => {
    if (stopping) {
      log.warn({ signal }, `${name} stopped at once (second signal)`);
      process.exit(1);
    }
    stopping = true;
    startDraining();
    log.info({ signal, graceMs }, `${name} stopping`);
    const deadline = setTimeout(() => {
      log.error({ timeoutMs: graceMs }, `${name} did not stop in time; exiting`);
      process.exit(1);
    }, graceMs);
    deadline.unref();
    close().then(
      () => {
        log.info(`${name} stopped`);
        process.exit(0);
      },
      (err: unknown) => {
        log.error({ err }, `${name} stop failed`);
        process.exit(1);
      },
    );
  };
  process.on('SIGTERM', () => stop('SIGTERM'));
  process.on('SIGINT', () => stop('SIGINT'));
}
