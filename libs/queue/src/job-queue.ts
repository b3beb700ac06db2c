import { Inject, Injectable, OnApplicationShutdown } from '@nestjs/common';
import { Queue } from 'bullmq';
import type { Redis } from 'ioredis';
import { JOBS, QUEUE_SETTINGS, isJobName, type JobEnvelope, type JobPayload, type MessageName, QueueName } from '@plink/contracts';
import { APP_CONFIG, type AppConfig } from '@plink/config';
import { warnThrottled } from '@plink/observability';
import { closeRedis, createRedis } from '@plink/redis';

/**
 * Adds typed jobs to BullMQ. Use {@link Outbox} instead when the job follows a database change.
 *
 * The producers: one Queue per queue name, all on one fail-fast connection of their own (BullMQ lets
 * Queues share a client; workers never use it). While Redis is away an add fails at once, so the outbox
 * relay keeps its rows and nobody waits; {@link ready} and {@link onReady} tell the relay when adding can
 * work again.
 */
@Injectable()
export class JobQueue implements OnApplicationShutdown {
  private readonly client: Redis;
  private readonly queues = new Map<QueueName, Queue>();

  constructor(@Inject(APP_CONFIG) config: AppConfig) {
    this.client = createRedis(config.redisUrl, 'plink-producer');
    for (const name of Object.values(QueueName)) {
      const queue = new Queue(name, { connection: this.client, prefix: `${config.redisPrefix}bull` });
      // The client's own listener already logs its connection errors (throttled); this catches the rest.
      queue.on('error', (err) => warnThrottled('queue', err, 'queue problem', { queue: name }));
      this.queues.set(name, queue);
    }
  }

  queue(name: QueueName): Queue {
    return this.queues.get(name)!;
  }

  /** Whether the producers' connection is up (an add can succeed now). */
  ready(): boolean {
    return this.client.status === 'ready';
  }

  /** A round trip on the producers' connection (health): fails at once while Redis is away. */
  async ping(): Promise<void> {
    await this.client.ping();
  }

  /** Calls `listener` each time the producers' connection (re)connects. */
  onReady(listener: () => void): void {
    this.client.on('ready', listener);
  }

  /**
   * Adds jobs with one round trip per queue; a `jobId` makes its add idempotent (an existing id is not added
   * twice). A job goes to its contract's queue; an event's message names its subscriber's `queue`.
   */
  async addMany(jobs: { name: MessageName; envelope: JobEnvelope; jobId?: string; queue?: QueueName }[]): Promise<void> {
    const byQueue = new Map<QueueName, typeof jobs>();
    for (const job of jobs) {
      const queue = job.queue ?? (isJobName(job.name) ? JOBS[job.name].queue : undefined);
      if (!queue) throw new Error(`"${job.name}" is an event: say which subscriber's queue it goes to`);
      const list = byQueue.get(queue);
      if (list) list.push(job);
      else byQueue.set(queue, [job]);
    }
    await Promise.all(
      [...byQueue].map(([queue, list]) =>
        this.queue(queue).addBulk(list.map((j) => ({ name: j.name, data: j.envelope, opts: jobOptions(queue, j.jobId) }))),
      ),
    );
  }

  async onApplicationShutdown() {
    // The queues share the client, so closing them leaves it open: close it after them.
    await Promise.all([...this.queues.values()].map((q) => q.close().catch(() => undefined)));
    await closeRedis(this.client);
  }
}

function jobOptions(queue: QueueName, jobId?: string) {
  const settings = QUEUE_SETTINGS[queue];
  return {
    jobId,
    attempts: settings.attempts,
    backoff: { type: settings.backoffType ?? 'exponential', delay: settings.backoffDelayMs },
    removeOnComplete: settings.keepCompleted,
    removeOnFail: settings.keepFailed,
  };
}

export type { JobPayload };
