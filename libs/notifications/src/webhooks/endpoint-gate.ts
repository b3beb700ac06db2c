/**
 * Who may send a webhook attempt now, in one notifications process. Without it one receiver that takes
 * connections and never answers held every one of the process's attempts (each for the whole response
 * timeout) and, through them, the worker's jobs, so every other creator's webhooks waited behind it. Here:
 *
 * - an endpoint (a page's target host) has at most `perEndpoint` attempts under way, an owner at most
 *   `perOwner` (a share of the process's `concurrency`), and the process at most `concurrency`;
 * - an attempt that finds its endpoint, its owner or the process full waits for a slot only while the one
 *   it waits on makes progress (an attempt started or ended within `stallMs`). Waiting on one that stalls
 *   is deferred instead: its delivery job goes back to the delayed set, so it does not hold a worker slot
 *   behind a receiver that hangs;
 * - an endpoint whose attempts keep timing out (`timeoutsBeforePark` in a row) is parked: its attempts are
 *   deferred until the park ends (a minute at first, twice as long each time it is parked again without an
 *   answer between, at most `maxParkMs`), then it is tried again.
 *
 * - while the host's CPU is short, an attempt first waits for its turn (a `pacer`, see DeliveryPacer: captures
 *   first); one to a parked endpoint is deferred without taking a turn.
 *
 * Deferring uses no attempt of the message and sends nothing: the message is only later.
 */

export interface GateLimits {
  /** Attempts under way in the process (WEBHOOK_CONCURRENCY). */
  concurrency: number;
  /** Attempts under way to one endpoint. */
  perEndpoint: number;
  /** Attempts under way for one owner's pages together. */
  perOwner: number;
  /** A full endpoint, owner or process with no attempt started or ended for this long is stalled. */
  stallMs: number;
  /** Timeouts in a row that park an endpoint. */
  timeoutsBeforePark: number;
  /** The first park's length. */
  parkMs: number;
  /** The longest park. */
  maxParkMs: number;
  /** The attempts' own limit: a stalled endpoint's slot frees by then at the latest. */
  responseTimeoutMs: number;
}

/**
 * The endpoint an attempt goes to: a page's webhook, or a hook subscription's target (`/api/v1/hooks`), at a
 * host, and its owner. A page's and a hook's are counted, and parked, apart, even at one host.
 */
export type EndpointRef = ({ pageId: number; hookId?: undefined } | { hookId: number; pageId?: undefined }) & {
  ownerId: number;
  /** The URL's host (and port). */
  host: string;
};

/** A slot to send one attempt: released with whether the attempt timed out. */
export interface Slot {
  release(outcome: { timedOut: boolean; answered: boolean }): void;
}

/** No slot now: the attempt is to be made no sooner than in `deferMs`. */
export interface Deferral {
  deferMs: number;
  why: 'parked' | 'busy';
}

export type ParkNotice = EndpointRef & {
  timeouts: number;
  until: Date;
};

export interface GateEvents {
  parked(notice: ParkNotice): void;
  resumed(endpoint: EndpointRef): void;
}

export interface GateOptions {
  /** Gives each attempt its turn before its slot (none: every attempt goes straight to the slots). */
  pacer?: { turn(): Promise<void> };
  now?: () => number;
  random?: () => number;
}

/** A busy endpoint's attempts are deferred at least this long. */
const MIN_BUSY_DEFER_MS = 1_000;
/** Deferred attempts come back spread over this share of their wait (not all at once). */
const DEFER_SPREAD = 0.2;
/** How often waiting attempts look whether what they wait on has stalled. */
const STALL_CHECK_MS = 50;
/** An endpoint unused this long is forgotten (its timeouts and parks with it). */
const FORGET_AFTER_MS = 60 * 60_000;

interface Usage {
  inFlight: number;
  /** When an attempt of this last started or ended. */
  lastActivity: number;
}

interface EndpointState extends Usage {
  key: string;
  ref: EndpointRef;
  owner: Usage;
  /** Timeouts in a row. */
  timeouts: number;
  parkedUntil: number;
  /** Parks in a row without an answer between (the next park is longer). */
  parks: number;
  /** The attempts waiting for a slot, first come first. */
  queue: ((result: Slot | Deferral) => void)[];
}

export class EndpointGate {
  private readonly endpoints = new Map<string, EndpointState>();
  private readonly owners = new Map<number, Usage>();
  private readonly process: Usage = { inFlight: 0, lastActivity: 0 };
  /** The endpoints with waiting attempts, in the order they are served (one served goes last). */
  private readonly waiting = new Set<EndpointState>();
  private stallCheck: NodeJS.Timeout | null = null;
  private lastSweep = 0;

  private readonly pacer?: { turn(): Promise<void> };
  private readonly now: () => number;
  private readonly random: () => number;

  constructor(
    private readonly limits: GateLimits,
    private readonly events: GateEvents,
    options: GateOptions = {},
  ) {
    this.pacer = options.pacer;
    this.now = options.now ?? Date.now;
    this.random = options.random ?? Math.random;
  }

  /** A slot for one attempt to `ref`, at once or after a short wait, or a deferral. */
  async acquire(ref: EndpointRef): Promise<Slot | Deferral> {
    if (this.pacer && !this.parkedUntil(ref)) await this.pacer.turn();
    const now = this.now();
    this.sweep(now);
    const endpoint = this.endpointOf(ref);
    if (endpoint.parkedUntil > now) return this.deferral('parked', endpoint.parkedUntil - now);
    const blocker = this.blockerOf(endpoint);
    if (!blocker) return this.take(endpoint);
    if (now - blocker.lastActivity > this.limits.stallMs) return this.busyDeferral(blocker, now);
    return new Promise<Slot | Deferral>((settle) => {
      endpoint.queue.push(settle);
      this.waiting.add(endpoint);
      this.stallCheck ??= setInterval(() => this.deferStalledWaiters(), STALL_CHECK_MS).unref();
    });
  }

  /** Until when the endpoint is parked, or null. */
  parkedUntil(ref: EndpointRef): Date | null {
    const until = this.endpoints.get(keyOf(ref))?.parkedUntil ?? 0;
    return until > this.now() ? new Date(until) : null;
  }

  /** Waiting attempts are deferred (a stopping worker). */
  close(): void {
    for (const endpoint of this.waiting) this.settleQueue(endpoint, endpoint.queue.length, () => this.deferral('busy', MIN_BUSY_DEFER_MS));
    this.stopStallCheck();
  }

  private endpointOf(ref: EndpointRef): EndpointState {
    const key = keyOf(ref);
    let state = this.endpoints.get(key);
    if (state && state.ref.ownerId !== ref.ownerId && state.inFlight === 0 && state.queue.length === 0) {
      this.endpoints.delete(key); // the page (or hook) changed hands: counted under its new owner
      state = undefined;
    }
    if (!state) {
      state = { key, ref, owner: this.ownerOf(ref.ownerId), inFlight: 0, lastActivity: 0, timeouts: 0, parkedUntil: 0, parks: 0, queue: [] };
      this.endpoints.set(key, state);
    }
    return state;
  }

  private ownerOf(ownerId: number): Usage {
    let usage = this.owners.get(ownerId);
    if (!usage) {
      usage = { inFlight: 0, lastActivity: 0 };
      this.owners.set(ownerId, usage);
    }
    return usage;
  }

  /** What keeps an attempt from starting now: its endpoint, its owner or the process at their limit. */
  private blockerOf(endpoint: EndpointState): Usage | null {
    if (endpoint.inFlight >= this.limits.perEndpoint) return endpoint;
    if (endpoint.owner.inFlight >= this.limits.perOwner) return endpoint.owner;
    if (this.process.inFlight >= this.limits.concurrency) return this.process;
    return null;
  }

  private take(endpoint: EndpointState): Slot {
    const now = this.now();
    for (const usage of [endpoint, endpoint.owner, this.process]) {
      usage.inFlight += 1;
      usage.lastActivity = now;
    }
    let released = false;
    return {
      release: (outcome) => {
        if (released) return;
        released = true;
        this.release(endpoint, outcome);
      },
    };
  }

  private release(endpoint: EndpointState, outcome: { timedOut: boolean; answered: boolean }): void {
    const now = this.now();
    for (const usage of [endpoint, endpoint.owner, this.process]) {
      usage.inFlight -= 1;
      usage.lastActivity = now;
    }
    if (outcome.timedOut) {
      endpoint.timeouts += 1;
      if (endpoint.timeouts >= this.limits.timeoutsBeforePark && endpoint.parkedUntil <= now) this.park(endpoint, now);
    } else {
      endpoint.timeouts = 0;
      if (outcome.answered && endpoint.parks > 0) {
        endpoint.parks = 0;
        this.events.resumed(endpoint.ref);
      }
    }
    this.grantWaiting(endpoint);
  }

  private park(endpoint: EndpointState, now: number): void {
    endpoint.parks += 1;
    const length = Math.min(this.limits.maxParkMs, this.limits.parkMs * 2 ** (endpoint.parks - 1));
    endpoint.parkedUntil = now + length;
    this.events.parked({ ...endpoint.ref, timeouts: endpoint.timeouts, until: new Date(endpoint.parkedUntil) });
    endpoint.timeouts = 0;
    // The attempts waiting for this endpoint wait for the park's end out of the process.
    this.settleQueue(endpoint, endpoint.queue.length, () => this.deferral('parked', length));
  }

  /**
   * Slots freed: the released endpoint's next waiting attempt first (its own slot), then the other waiting
   * endpoints' in turn, each served one going last, while the process has room.
   */
  private grantWaiting(released: EndpointState): void {
    if (released.queue.length > 0 && !this.blockerOf(released)) this.settleQueue(released, 1, () => this.take(released));
    for (const endpoint of [...this.waiting]) {
      if (this.process.inFlight >= this.limits.concurrency) break;
      if (endpoint.queue.length > 0 && !this.blockerOf(endpoint)) {
        this.settleQueue(endpoint, 1, () => this.take(endpoint));
        if (endpoint.queue.length > 0) {
          this.waiting.delete(endpoint);
          this.waiting.add(endpoint);
        }
      }
    }
  }

  /** Waiting attempts whose endpoint is parked, or whose blocker made no progress for `stallMs`, are deferred. */
  private deferStalledWaiters(): void {
    const now = this.now();
    for (const endpoint of [...this.waiting]) {
      if (endpoint.parkedUntil > now) {
        this.settleQueue(endpoint, endpoint.queue.length, () => this.deferral('parked', endpoint.parkedUntil - now));
        continue;
      }
      while (endpoint.queue.length > 0 && !this.blockerOf(endpoint)) this.settleQueue(endpoint, 1, () => this.take(endpoint));
      const blocker = this.blockerOf(endpoint);
      if (blocker && now - blocker.lastActivity > this.limits.stallMs) {
        this.settleQueue(endpoint, endpoint.queue.length, () => this.busyDeferral(blocker, now));
      }
    }
  }

  /** Settles the first `count` waiting attempts of the endpoint with what `result` gives each. */
  private settleQueue(endpoint: EndpointState, count: number, result: () => Slot | Deferral): void {
    const settled = endpoint.queue.splice(0, count);
    for (const settle of settled) settle(result());
    if (endpoint.queue.length === 0) this.waiting.delete(endpoint);
    if (this.waiting.size === 0) this.stopStallCheck();
  }

  private stopStallCheck(): void {
    if (this.stallCheck) clearInterval(this.stallCheck);
    this.stallCheck = null;
  }

  /** Forgets, at most once a minute, the endpoints and owners unused for an hour with nothing under way. */
  private sweep(now: number): void {
    if (now - this.lastSweep < 60_000) return;
    this.lastSweep = now;
    for (const [key, endpoint] of this.endpoints) {
      const idle = endpoint.inFlight === 0 && endpoint.queue.length === 0 && endpoint.parkedUntil <= now;
      if (idle && now - endpoint.lastActivity > FORGET_AFTER_MS) this.endpoints.delete(key);
    }
    const used = new Set([...this.endpoints.values()].map((endpoint) => endpoint.owner));
    for (const [id, owner] of this.owners) if (!used.has(owner)) this.owners.delete(id);
  }

  /** The longer what it waits on has stalled, the longer the wait; never past when its attempts time out. */
  private busyDeferral(blocker: Usage, now: number): Deferral {
    const stalledFor = now - blocker.lastActivity;
    return this.deferral('busy', Math.min(this.limits.responseTimeoutMs, Math.max(MIN_BUSY_DEFER_MS, stalledFor)));
  }

  private deferral(why: Deferral['why'], ms: number): Deferral {
    return { why, deferMs: Math.round(ms * (1 + DEFER_SPREAD * this.random())) };
  }
}

function keyOf(ref: EndpointRef): string {
  return ref.hookId !== undefined ? `hook ${ref.hookId} ${ref.host}` : `page ${ref.pageId} ${ref.host}`;
}
