import { createHash, timingSafeEqual } from 'node:crypto';
import { isIP } from 'node:net';
import { Counter, Gauge, Histogram, Registry, collectDefaultMetrics } from 'prom-client';

/**
 * The process's Prometheus metrics (`GET /metrics`, text format): Node's own (CPU, memory, event-loop lag, GC),
 * HTTP request durations, the queues, the outbox, lead capture batches and the view flush. One registry per
 * process: the metrics are module-level, and what needs a running app (queue counts, the outbox) is read at
 * scrape time from the sources the running apps register ({@link registerMetricsSource}).
 */
export const metricsRegistry = new Registry();
collectDefaultMetrics({ register: metricsRegistry, prefix: 'plink_' });

export const httpRequestSeconds = new Histogram({
  name: 'plink_http_request_duration_seconds',
  help: 'HTTP requests by route pattern, method and status, from the request to the last byte of the answer',
  labelNames: ['method', 'route', 'status'] as const,
  buckets: [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
  registers: [metricsRegistry],
});

export const jobWaitSeconds = new Histogram({
  name: 'plink_job_wait_seconds',
  help: 'Time a job waited in its queue before a worker took it (from when it was due)',
  labelNames: ['queue', 'job'] as const,
  buckets: [0.005, 0.01, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60, 300, 900, 3600],
  registers: [metricsRegistry],
});

export const jobRunSeconds = new Histogram({
  name: 'plink_job_run_seconds',
  help: 'Time a worker spent on one attempt of a job',
  labelNames: ['queue', 'job', 'result'] as const,
  buckets: [0.001, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30],
  registers: [metricsRegistry],
});

export const jobsFinished = new Counter({
  name: 'plink_jobs_finished_total',
  help: 'Job attempts finished by this process, by result (completed, failed, delayed: put back to wait without using an attempt); rate() gives throughput',
  labelNames: ['queue', 'job', 'result'] as const,
  registers: [metricsRegistry],
});

export const leadBatchSize = new Histogram({
  name: 'plink_lead_capture_batch_size',
  help: 'Leads written by one group-commit statement of the lead capture',
  buckets: [1, 2, 5, 10, 20, 50, 100, 200, 500],
  registers: [metricsRegistry],
});

/** What a running app can tell at scrape time. */
export interface MetricsSource {
  /** Jobs per queue and state (waiting, active, delayed, failed, …). */
  queueCounts?(): Promise<Record<string, Record<string, number>>>;
  /** Rows waiting in the outbox, and the age in seconds of the oldest (0 when empty). */
  outbox?(): Promise<{ rows: number; oldestSeconds: number }>;
}

const sources = new Set<MetricsSource>();
let lastViewFlush: number | null = null;

/** Adds a source read at each scrape; the returned function removes it (on shutdown). */
export function registerMetricsSource(source: MetricsSource): () => void {
  sources.add(source);
  return () => sources.delete(source);
}

/** The view flush calls it after each successful flush. */
export function recordViewFlush(at = Date.now()): void {
  lastViewFlush = at;
}

/** A source that does not answer within this is left out of one scrape (a scrape never hangs on Redis). */
const SOURCE_TIMEOUT_MS = 2_000;

function within<T>(promise: Promise<T>): Promise<T | undefined> {
  let timer: NodeJS.Timeout;
  return Promise.race([promise.catch(() => undefined), new Promise<undefined>((r) => (timer = setTimeout(() => r(undefined), SOURCE_TIMEOUT_MS)))]).finally(() =>
    clearTimeout(timer),
  );
}

new Gauge({
  name: 'plink_queue_jobs',
  help: 'Jobs in each BullMQ queue by state (the same for every process of an install: aggregate with max)',
  labelNames: ['queue', 'state'] as const,
  registers: [metricsRegistry],
  async collect() {
    this.reset();
    for (const source of sources) {
      const counts = source.queueCounts && (await within(source.queueCounts()));
      if (!counts) continue;
      for (const [queue, states] of Object.entries(counts)) {
        for (const [state, n] of Object.entries(states)) this.set({ queue, state }, n);
      }
      return;
    }
  },
});

const outboxRows = new Gauge({ name: 'plink_outbox_rows', help: 'Jobs recorded in the outbox, not yet handed to Redis', registers: [metricsRegistry] });
new Gauge({
  name: 'plink_outbox_oldest_seconds',
  help: 'Age of the oldest job waiting in the outbox (0 when empty): grows while Redis is away',
  registers: [metricsRegistry],
  async collect() {
    for (const source of sources) {
      const outbox = source.outbox && (await within(source.outbox()));
      if (!outbox) continue;
      outboxRows.set(outbox.rows);
      this.set(outbox.oldestSeconds);
      return;
    }
  },
});

new Gauge({
  name: 'plink_view_flush_lag_seconds',
  help: 'Seconds since this process last moved buffered page views into the database (absent before the first flush)',
  registers: [metricsRegistry],
  collect() {
    if (lastViewFlush === null) this.reset();
    else this.set((Date.now() - lastViewFlush) / 1000);
  },
});

/** The answer to `GET /metrics`. */
export async function renderMetrics(): Promise<{ contentType: string; body: string }> {
  return { contentType: metricsRegistry.contentType, body: await metricsRegistry.metrics() };
}

/**
 * Who may read /metrics: anyone with `Authorization: Bearer <METRICS_TOKEN>`, and, where `internal` allows it,
 * a scraper inside the network (a loopback or private client address). The gateway's public port allows the
 * latter only outside production: there every visitor comes through a proxy whose own address is private, so
 * the rule would rest on TRUST_PROXY being exactly right. A worker's health port (never published) keeps it.
 * A visitor is neither: queue depths and routes are not theirs to see.
 */
export function mayReadMetrics(
  clientAddress: string | undefined,
  authorization: string | undefined,
  token: string | undefined,
  internal: 'allowed' | 'token-only' = 'allowed',
): boolean {
  if (token && authorization?.startsWith('Bearer ') && sameSecret(authorization.slice(7), token)) return true;
  return internal === 'allowed' && clientAddress !== undefined && isInternalAddress(clientAddress);
}

function isInternalAddress(address: string): boolean {
  const ip = address.startsWith('::ffff:') ? address.slice(7) : address;
  if (isIP(ip) === 4) {
    const [a, b] = ip.split('.').map(Number);
    return a === 127 || a === 10 || (a === 172 && b >= 16 && b <= 31) || (a === 192 && b === 168);
  }
  if (isIP(ip) === 6) return ip === '::1' || /^f[cd][0-9a-f]{2}:/i.test(ip);
  return false;
}

/** Compares in constant time (hashes first, so lengths do not leak either). */
function sameSecret(given: string, expected: string): boolean {
  const digest = (v: string) => createHash('sha256').update(v).digest();
  return timingSafeEqual(digest(given), digest(expected));
}
