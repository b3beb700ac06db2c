import { Inject, Injectable } from '@nestjs/common';
import { MikroORM } from '@mikro-orm/postgresql';
import type { Redis } from 'ioredis';
import { REDIS } from '../redis/redis.module';

export interface HealthReport {
  status: 'ok' | 'degraded';
  service: string;
  uptimeSeconds: number;
  checks: { database: 'up' | 'down'; redis: 'up' | 'down' };
}

/** Liveness of what a Plink process depends on. */
@Injectable()
export class HealthService {
  constructor(
    @Inject(MikroORM) private readonly orm: MikroORM,
    @Inject(REDIS) private readonly redis: Redis,
  ) {}

  async report(service: string): Promise<HealthReport> {
    const [database, redis] = await Promise.all([
      this.orm.em
        .fork()
        .execute('select 1')
        .then(() => 'up' as const)
        .catch(() => 'down' as const),
      withTimeout(this.redis.ping(), 1_000)
        .then(() => 'up' as const)
        .catch(() => 'down' as const),
    ]);
    return {
      status: database === 'up' && redis === 'up' ? 'ok' : 'degraded',
      service,
      uptimeSeconds: Math.round(process.uptime()),
      checks: { database, redis },
    };
  }
}

function withTimeout<T>(p: Promise<T>, ms: number): Promise<T> {
  return Promise.race([p, new Promise<T>((_, reject) => setTimeout(() => reject(new Error('timeout')), ms).unref())]);
}
