import { Inject, Injectable } from '@nestjs/common';
import { MikroORM } from '@mikro-orm/postgresql';
import type { Redis } from 'ioredis';
import { isDraining } from '../bootstrap/graceful-stop';
import { REDIS } from '../redis/redis.module';

export interface HealthReport {
  /** 'draining': the process is stopping (SIGTERM) and takes no new traffic, whatever its dependencies say. */
  status: 'ok' | 'degraded' | 'draining';
  service: string;
  uptimeSeconds: number;
  checks: { database: 'up' | 'down'; redis: 'up' | 'down' };
}

/** What `/health/live` answers: the process runs and its event loop turns (no dependency is asked). */
export interface LivenessReport {
  status: 'ok';
  service: string;
  uptimeSeconds: number;
}

/** How long a readiness check waits for PostgreSQL or Redis before calling it down. */
export const HEALTH_CHECK_TIMEOUT_MS = 1_000;

/**
 * Health of a Plink process. Two questions, as orchestrators ask them:
 * - live: should this process be restarted? Only when it no longer answers at all, so no dependency is
 *   checked (an outage of Redis is not cured by restarting every gateway).
 * - ready: should traffic be sent here? When PostgreSQL and Redis both answer within
 *   {@link HEALTH_CHECK_TIMEOUT_MS}, and the process is not stopping. `/health` answers the same report.
 */
@Injectable()
export class HealthService {
  constructor(
    @Inject(MikroORM) private readonly orm: MikroORM,
    @Inject(REDIS) private readonly redis: Redis,
  ) {}

  live(service: string): LivenessReport {
    return { status: 'ok', service, uptimeSeconds: Math.round(process.uptime()) };
  }

  async report(service: string): Promise<HealthReport> {
    const [database, redis] = await Promise.all([
      upOrDown(this.orm.em.fork().execute('select 1')),
      // The shared client fails fast while Redis is away, so this answers at once then.
      upOrDown(this.redis.ping()),
    ]);
    return {
      status: isDraining() ? 'draining' : database === 'up' && redis === 'up' ? 'ok' : 'degraded',
      service,
      uptimeSeconds: Math.round(process.uptime()),
      checks: { database, redis },
    };
  }
}

function upOrDown(check: Promise<unknown>): Promise<'up' | 'down'> {
  let timer: NodeJS.Timeout;
  return Promise.race([
    check.then(() => 'up' as const),
    new Promise<'down'>((resolve) => {
      timer = setTimeout(() => resolve('down'), HEALTH_CHECK_TIMEOUT_MS);
    }),
  ])
    .catch(() => 'down' as const)
    .finally(() => clearTimeout(timer));
}
