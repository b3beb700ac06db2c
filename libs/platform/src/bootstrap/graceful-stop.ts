import type { Logger } from 'pino';

/** The longest a stop may take, Redis reachable or not; then the process exits anyway. */
export const STOP_TIMEOUT_MS = 9_000;

/**
 * Stops the process on SIGTERM/SIGINT: `close` (the app's shutdown hooks) runs once, then the process
 * exits 0. Should it not finish within {@link STOP_TIMEOUT_MS} (a dependency that never answers), the
 * process says so and exits 1, so an orchestrator's stop never waits on an outage. A second signal
 * during the stop exits at once.
 */
export function stopOnSignals(log: Logger, name: string, close: () => Promise<void>): void {
  let stopping = false;
  const stop = (signal: string) => {
    if (stopping) {
      log.warn({ signal }, `${name} stopped at once (second signal)`);
      process.exit(1);
    }
    stopping = true;
    log.info({ signal }, `${name} stopping`);
    const deadline = setTimeout(() => {
      log.error({ timeoutMs: STOP_TIMEOUT_MS }, `${name} did not stop in time; exiting`);
      process.exit(1);
    }, STOP_TIMEOUT_MS);
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
