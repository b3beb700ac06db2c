import { readFileSync } from 'node:fs';

/** Where Linux tells how long tasks of the whole host waited for a CPU (pressure stall information). */
export const HOST_CPU_PRESSURE_FILE = '/proc/pressure/cpu';

/** How often the counter is read: the share answered covers the last interval. */
const SAMPLE_MS = 250;

/**
 * The share of recent time (0–1) in which at least one runnable task of the host waited for a CPU: Linux's
 * pressure stall information ("some" line, its `total=` microseconds), read every 250 ms. Where the kernel does
 * not tell (no such file, another OS) the share is 0: nothing ever gives way. The counter includes this
 * process's own waits; a caller that slows down when the share is high slows down, in part, for itself.
 */
export class CpuPressure {
  private timer?: NodeJS.Timeout;
  private last?: { at: number; stalledUs: number };
  private current = 0;

  constructor(private readonly file: string = HOST_CPU_PRESSURE_FILE) {}

  /** Starts reading the counter (the first share is known one interval later); {@link share} starts it too. */
  start(): void {
    if (this.timer) return;
    this.sample();
    this.timer = setInterval(() => this.sample(), SAMPLE_MS);
    this.timer.unref();
  }

  /** The share over the last interval, until {@link close}. */
  share(): number {
    this.start();
    return this.current;
  }

  close(): void {
    if (this.timer) clearInterval(this.timer);
    this.timer = undefined;
    this.last = undefined;
    this.current = 0;
  }

  private sample(): void {
    const stalledUs = readStalledUs(this.file);
    const at = performance.now();
    if (stalledUs === undefined) {
      this.current = 0;
      this.last = undefined;
      return;
    }
    if (this.last && at > this.last.at) {
      const share = (stalledUs - this.last.stalledUs) / 1000 / (at - this.last.at);
      this.current = Math.min(1, Math.max(0, share));
    }
    this.last = { at, stalledUs };
  }
}

/** The `some … total=` counter of a pressure file, in microseconds; undefined when it cannot be read. */
function readStalledUs(file: string): number | undefined {
  try {
    const match = /^some\b.*\btotal=(\d+)/m.exec(readFileSync(file, 'utf8'));
    return match ? Number(match[1]) : undefined;
  } catch {
    return undefined;
  }
}
