import { Injectable, ServiceUnavailableException } from '@nestjs/common';
import { HealthCheckService, type HealthCheckResult, type HealthIndicatorResult } from '@nestjs/terminus';
import { isDraining } from '../bootstrap/graceful-stop';
import { DatabaseHealthIndicator, QueuesHealthIndicator, RedisHealthIndicator } from './health-indicators';

export { HEALTH_CHECK_TIMEOUT_MS } from './health-indicators';

type UpOrDown = 'up' | 'down';

export interface HealthReport {
  /** 'draining': the process is stopping (SIGTERM) and takes no new traffic, whatever its dependencies say. */
  status: 'ok' | 'degraded' | 'draining';
  service: string;
  uptimeSeconds: number;
  checks: { database: UpOrDown; redis: UpOrDown; queues: UpOrDown };
  /** Each check's answer as @nestjs/terminus gives it (`{ status, message?, … }` per check). */
  details: HealthIndicatorResult;
}

/** What `/health/live` answers: the process runs and its event loop turns (no dependency is asked). */
export interface LivenessReport {
  status: 'ok';
  service: string;
  uptimeSeconds: number;
}

/**
 * Health of a Plink process, on @nestjs/terminus. Two questions, as orchestrators ask them:
 * - live: should this process be restarted? Only when it no longer answers at all, so no dependency is
 *   checked (an outage of Redis is not cured by restarting every gateway).
 * - ready: should traffic be sent here? When PostgreSQL, Redis and this process's queues all answer within
 *   a second each, and the process is not stopping. `/health` answers the same report.
 */
@Injectable()
export class HealthService {
  constructor(
    private readonly health: HealthCheckService,
    private readonly database: DatabaseHealthIndicator,
    private readonly redis: RedisHealthIndicator,
    private readonly queues: QueuesHealthIndicator,
  ) {}

  live(service: string): LivenessReport {
    return { status: 'ok', service, uptimeSeconds: Math.round(process.uptime()) };
  }

  async report(service: string): Promise<HealthReport> {
    let result: HealthCheckResult;
    try {
      result = await this.health.check([() => this.database.check('database'), () => this.redis.check('redis'), () => this.queues.check('queues')]);
    } catch (err) {
      // Terminus answers a failed check by throwing a 503 that carries the result.
      if (!(err instanceof ServiceUnavailableException)) throw err;
      result = err.getResponse() as HealthCheckResult;
    }
    const state = (key: string): UpOrDown => (result.details[key]?.status === 'up' ? 'up' : 'down');
    return {
      status: isDraining() ? 'draining' : result.status === 'ok' ? 'ok' : 'degraded',
      service,
      uptimeSeconds: Math.round(process.uptime()),
      checks: { database: state('database'), redis: state('redis'), queues: state('queues') },
      details: result.details,
    };
  }
}
