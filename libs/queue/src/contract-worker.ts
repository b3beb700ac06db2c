import { BeforeApplicationShutdown, Inject, Injectable, OnApplicationBootstrap, OnModuleInit } from '@nestjs/common';
import { OnWorkerEvent, WorkerHost } from '@nestjs/bullmq';
import { MikroORM, RequestContext } from '@mikro-orm/postgresql';
import { DelayedError, UnrecoverableError, type Job, type Worker } from 'bullmq';
import { isMessageOf, jobsOfQueue, schemaOf, type JobPayload, type JobsOfQueue, QueueName } from '@plink/contracts';
import { APP_CONFIG, type AppConfig } from '@plink/config';
import { getLogger, runWithCorrelation, warnThrottled, jobRunSeconds, jobWaitSeconds, jobsFinished } from '@plink/observability';

/** What a stop keeps for closing connections after the workers: they get the rest of SHUTDOWN_GRACE_MS. */
const CLOSE_RESERVE_MS = 5_000;

/**
 * A queue's handlers. `token` is the worker's lock on the job: a handler that must wait for something before it
 * can run moves the job back to the delayed set with it (`job.moveToDelayed(at, token)`, then throws BullMQ's
 * `DelayedError`), which uses no attempt.
 */
export type JobHandlers<Q extends QueueName> = {
  [N in JobsOfQueue<Q>]: (payload: JobPayload<N>, job: Job, token?: string) => Promise<void>;
};

/**
 * Knows which processor handles which job, and refuses to boot when a job of a served queue has
 * no handler or two (ARCHITECTURE convention 3).
 */
@Injectable()
export class JobHandlerRegistry implements OnApplicationBootstrap {
  /** Handlers by queue and name: an event has the same name on each subscriber's queue. */
  private readonly handled = new Map<string, string[]>();
  private readonly served = new Set<QueueName>();
  private readonly running: { queue: QueueName; worker: () => Worker }[] = [];

  register(queue: QueueName, owner: string, jobs: string[]): void {
    this.served.add(queue);
    for (const job of jobs) {
      if (!isMessageOf(queue, job)) {
        throw new Error(`${owner} handles "${job}", which is neither a job of queue "${queue}" nor an event it subscribes to`);
      }
      const key = `${queue}:${job}`;
      this.handled.set(key, [...(this.handled.get(key) ?? []), owner]);
    }
  }

  /** Records a processor's BullMQ worker (`worker` throws until @nestjs/bullmq has created it), for health. */
  attachWorker(queue: QueueName, worker: () => Worker): void {
    this.running.push({ queue, worker });
  }

  /** The queues this process's processors serve. */
  servedQueues(): QueueName[] {
    return [...this.served];
  }

  /** The workers of this process's processors. */
  workers(): { queue: QueueName; worker: () => Worker }[] {
    return [...this.running];
  }

  /** Throws listing every missing or duplicate handler. */
  verify(): void {
    const problems: string[] = [];
    for (const queue of this.served) {
      for (const job of jobsOfQueue(queue)) {
        const owners = this.handled.get(`${queue}:${job}`) ?? [];
        if (owners.length === 0) problems.push(`job "${job}" on queue "${queue}" has no handler`);
        if (owners.length > 1) problems.push(`job "${job}" on queue "${queue}" has ${owners.length} handlers (${owners.join(', ')})`);
      }
    }
    if (problems.length > 0) throw new Error(`Job handlers are wrong:\n  - ${problems.join('\n  - ')}`);
  }

  onApplicationBootstrap() {
    this.verify();
  }
}

/**
 * Base of every BullMQ processor: parses the payload with the job's contract schema (Redis JSON
 * is untrusted), runs the handler in its own ORM context with a correlated logger, and lets a
 * thrown error reach BullMQ so the job is retried with backoff.
 * Subclasses are decorated with `@Processor(queue, { concurrency: QUEUE_SETTINGS[queue].concurrency })`.
 */
export abstract class ContractWorker<Q extends QueueName> extends WorkerHost implements OnModuleInit, BeforeApplicationShutdown {
  protected abstract readonly queueName: Q;
  protected abstract readonly handlers: JobHandlers<Q>;

  @Inject(MikroORM) private readonly orm!: MikroORM;
  @Inject(APP_CONFIG) private readonly platformConfig!: AppConfig;
  @Inject(JobHandlerRegistry) private readonly registry!: JobHandlerRegistry;

  onModuleInit() {
    this.registry.register(this.queueName, this.constructor.name, Object.keys(this.handlers));
    this.registry.attachWorker(this.queueName, () => this.worker);
  }

  /**
   * A worker's errors (its connections' errors among them), logged at a bounded rate: without a
   * listener BullMQ prints each one to the console, which during an outage means thousands a second.
   */
  @OnWorkerEvent('error')
  onWorkerError(err: Error) {
    warnThrottled('worker', err, 'worker problem', { queue: this.queueName });
  }

  /**
   * Stops the worker within a bounded time, before @nestjs/bullmq's own close (which waits without
   * limit). With Redis up, current jobs get SHUTDOWN_GRACE_MS less a few seconds to finish; with Redis away
   * (commands waiting for a reconnect that may never come) the worker is closed by force at once. A
   * close that still hangs is cut by disconnecting, which fails the waiting commands.
   */
  async beforeApplicationShutdown() {
    let worker: Worker;
    try {
      worker = this.worker;
    } catch {
      return; // never started
    }
    const client = await settleWithin(worker.getBackend().client, 200).catch(() => undefined);
    const away = !client || (client as { status?: string }).status !== 'ready';
    const closing = worker.close(away).catch(() => undefined);
    const finishWithin = Math.max(1_000, this.platformConfig.shutdownGraceMs - CLOSE_RESERVE_MS);
    if (await settleWithin(closing.then(() => true), away ? 1_000 : finishWithin)) return;
    getLogger().warn({ queue: this.queueName }, 'worker did not stop in time; disconnecting it');
    await settleWithin(worker.disconnect().catch(() => undefined), 1_000);
    await settleWithin(closing, 1_000);
  }

  private measure(job: string, result: 'completed' | 'failed' | 'delayed', started: number): void {
    const labels = { queue: this.queueName, job, result };
    jobRunSeconds.observe(labels, (Date.now() - started) / 1000);
    jobsFinished.inc(labels);
  }

  async process(job: Job, token?: string): Promise<void> {
    const name = job.name;
    const meta = (job.data as { meta?: { correlationId?: string } } | undefined)?.meta;
    return runWithCorrelation(
      meta?.correlationId,
      async () => {
        const log = getLogger();
        if (!isMessageOf(this.queueName, name)) {
          throw new UnrecoverableError(`Unknown job "${name}" on queue "${this.queueName}"`);
        }
        const parsed = schemaOf(name).safeParse((job.data as { payload?: unknown } | undefined)?.payload);
        if (!parsed.success) {
          log.error({ job: name, jobId: job.id, issues: parsed.error.issues.map((i) => i.path.join('.')) }, 'job payload rejected');
          throw new UnrecoverableError(`Invalid payload for job "${name}"`);
        }
        const handler = (this.handlers as Record<string, (p: unknown, j: Job, t?: string) => Promise<void>>)[name];
        const started = Date.now();
        // Waiting time from when the job was due (its delay or backoff ended), on first attempts only.
        if (job.attemptsMade === 0) {
          jobWaitSeconds.observe({ queue: this.queueName, job: name }, Math.max(0, started - job.timestamp - (job.opts.delay ?? 0)) / 1000);
        }
        try {
          await RequestContext.create(this.orm.em, () => handler.call(this, parsed.data, job, token));
          // Debug: a repeatable job (the view flush) would otherwise log every few seconds.
          log.debug({ job: name, jobId: job.id, attempt: job.attemptsMade + 1, ms: Date.now() - started }, 'job done');
          this.measure(name, 'completed', started);
        } catch (err) {
          if (err instanceof DelayedError) {
            // The handler put the job back to wait (not a failure, no attempt used).
            log.debug({ job: name, jobId: job.id, reason: err.message }, 'job delayed');
            this.measure(name, 'delayed', started);
            throw err;
          }
          log.warn({ job: name, jobId: job.id, attempt: job.attemptsMade + 1, err }, 'job failed');
          this.measure(name, 'failed', started);
          throw err;
        }
      },
      { job: name, jobId: job.id },
    );
  }
}

/** The promise's value, or undefined when it has not settled within `ms`. */
function settleWithin<T>(promise: Promise<T>, ms: number): Promise<T | undefined> {
  let timer: NodeJS.Timeout;
  return Promise.race([promise, new Promise<undefined>((resolve) => (timer = setTimeout(() => resolve(undefined), ms)))]).finally(() =>
    clearTimeout(timer),
  );
}
