/** What the pacer asks about the host: the share of recent time in which some task waited for a CPU. */
export interface PressureGauge {
  share(): number;
  start(): void;
  close(): void;
}

export interface PacerSettings {
  /** From this share of waiting on (0–1) attempts give way; 0: never. */
  threshold: number;
  /** Attempts a second this process makes while they give way (a second's worth may go at once). */
  ratePerSecond: number;
}

/** How often an attempt that waits for its turn looks again. */
const POLL_MS = 50;

/**
 * Captures first: while the host's CPU is short, webhook and hook attempts give way to the lead captures they
 * follow. They go at a low rate (a token bucket of `ratePerSecond` attempts a second, a second's worth at
 * most), and catch up at full speed once the CPU is free again. EndpointGate asks for an attempt's turn before
 * it gives the attempt a slot, so a waiting attempt holds no slot and its timeout has not started. Nothing is
 * dropped; the job waits while it holds its place (BullMQ keeps its lock).
 *
 * Why: on a host shared with the gateways, a burst of sign-ups (a page shared widely) made the notifications
 * process, its database writes and the receiving tools take as much CPU per lead as the capture itself, and
 * the sign-ups' own rate fell by up to half. Lowering the process's niceness did not help, because the
 * database work it causes runs at normal priority. Figures in docs/performance.md.
 */
export class DeliveryPacer {
  private tokens: number;
  private refilledAt = performance.now();
  /** Attempts waiting for their turn, first come first served. */
  private readonly waiting: (() => void)[] = [];
  private timer?: NodeJS.Timeout;

  constructor(
    private readonly gauge: PressureGauge,
    private readonly settings: PacerSettings,
  ) {
    this.tokens = settings.ratePerSecond;
  }

  /** Starts reading the host's pressure now (else at the first attempt). */
  start(): void {
    if (this.settings.threshold > 0) this.gauge.start();
  }

  /** Stops reading the pressure; attempts still waiting go now. */
  close(): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = undefined;
    for (const go of this.waiting.splice(0)) go();
    this.gauge.close();
  }

  /** Whether attempts give way now. */
  givingWay(): boolean {
    return this.settings.threshold > 0 && this.gauge.share() >= this.settings.threshold;
  }

  /** Resolves when the next attempt may be made: at once while the CPU is free, else as the rate allows. */
  turn(): Promise<void> {
    if (this.waiting.length === 0 && this.take()) return Promise.resolve();
    return new Promise((resolve) => {
      this.waiting.push(resolve);
      this.schedule();
    });
  }

  /** Whether an attempt may go now; takes its token if so. */
  private take(): boolean {
    const now = performance.now();
    if (!this.givingWay()) {
      // A free CPU refills the bucket: the next time it is short, a second's worth goes at once again.
      this.tokens = this.settings.ratePerSecond;
      this.refilledAt = now;
      return true;
    }
    this.tokens = Math.min(this.settings.ratePerSecond, this.tokens + ((now - this.refilledAt) / 1000) * this.settings.ratePerSecond);
    this.refilledAt = now;
    if (this.tokens < 1) return false;
    this.tokens -= 1;
    return true;
  }

  /** One timer for all the waiting attempts: it lets go as many as may go, then looks again. */
  private schedule(): void {
    if (this.timer) return;
    this.timer = setTimeout(
      () => {
        this.timer = undefined;
        while (this.waiting.length > 0 && this.take()) this.waiting.shift()!();
        if (this.waiting.length > 0) this.schedule();
      },
      Math.min(POLL_MS, 1000 / this.settings.ratePerSecond),
    );
  }
}
