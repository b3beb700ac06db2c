import { Inject, Injectable } from '@nestjs/common';
import { MikroORM } from '@mikro-orm/postgresql';
import { HealthIndicatorService, type HealthIndicatorResult } from '@nestjs/terminus';
import type { Redis } from 'ioredis';
import { JobHandlerRegistry, JobQueue } from '@plink/queue';
import { REDIS } from '@plink/redis';

/** How long a readiness check waits for PostgreSQL or Redis before calling it down. */
export const HEALTH_CHECK_TIMEOUT_MS = 1_000;

/** PostgreSQL answers a query through the ORM's pool. */
@Injectable()
export class DatabaseHealthIndicator {
  constructor(
    private readonly indicator: HealthIndicatorService,
    @Inject(MikroORM) private readonly orm: MikroORM,
  ) {}

  async check(key: string): Promise<HealthIndicatorResult> {
    const session = this.indicator.check(key);
    const failure = await failureOf(this.orm.em.fork().execute('select 1'));
    return failure ? session.down({ message: failure }) : session.up();
  }
}

/** Redis answers the process's shared client (sessions, rate limits, caches); it fails fast while Redis is away. */
@Injectable()
export class RedisHealthIndicator {
  constructor(
    private readonly indicator: HealthIndicatorService,
    @Inject(REDIS) private readonly redis: Redis,
  ) {}

  async check(key: string): Promise<HealthIndicatorResult> {
    const session = this.indicator.check(key);
    const failure = await failureOf(this.redis.ping());
    return failure ? session.down({ message: failure }) : session.up();
  }
}

/**
 * This process's queues are reachable: the producers' connection answers (every process relays its outbox into
 * the queues), and each queue whose jobs it runs has a running worker whose connection is up.
 */
@Injectable()
export class QueuesHealthIndicator {
  constructor(
    private readonly indicator: HealthIndicatorService,
    private readonly jobs: JobQueue,
    private readonly registry: JobHandlerRegistry,
  ) {}

  async check(key: string): Promise<HealthIndicatorResult> {
    const session = this.indicator.check(key);
    const [producer, ...served] = await Promise.all([
      failureOf(this.jobs.ping()),
      ...this.registry.workers().map(async ({ queue, worker }) => {
        let running;
        try {
          running = worker();
        } catch {
          return { queue, failure: 'worker not started' };
        }
        if (!running.isRunning()) return { queue, failure: 'worker not running' };
        const client = await settled(running.getBackend().client);
        return { queue, failure: client?.status === 'ready' ? null : `worker connection ${client?.status ?? 'not open'}` };
      }),
    ]);
    const workers = Object.fromEntries(served.map(({ queue, failure }) => [queue, failure ?? 'up']));
    const details = { producer: producer ?? 'up', workers };
    return producer || served.some((s) => s.failure) ? session.down(details) : session.up(details);
  }
}

/** The promise's value, or undefined when it fails or takes longer than {@link HEALTH_CHECK_TIMEOUT_MS}. */
async function settled<T>(promise: Promise<T>): Promise<T | undefined> {
  let value: T | undefined;
  const failure = await failureOf(promise.then((v) => (value = v)));
  return failure ? undefined : value;
}

/** Null when `check` settles well within {@link HEALTH_CHECK_TIMEOUT_MS}, else why not (a short, log-safe reason). */
async function failureOf(check: Promise<unknown>): Promise<string | null> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<string>((resolve) => {
    timer = setTimeout(() => resolve(`no answer within ${HEALTH_CHECK_TIMEOUT_MS} ms`), HEALTH_CHECK_TIMEOUT_MS);
  });
  try {
    return await Promise.race([check.then(() => null), timeout]);
  } catch (err) {
    return String((err as Error)?.message ?? err).slice(0, 200);
  } finally {
    clearTimeout(timer);
  }
}
