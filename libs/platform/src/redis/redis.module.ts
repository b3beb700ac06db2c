import { Global, Inject, Module, OnApplicationShutdown } from '@nestjs/common';
import { Redis } from 'ioredis';
import { APP_CONFIG } from '../config/config.module';
import type { AppConfig } from '../config/config.schema';

/** Injection token of the shared ioredis client (commands; BullMQ opens its own connections). */
export const REDIS = Symbol('REDIS');

/** Builds the full Redis key of a Plink key, under this deployment's prefix. */
export class RedisKeys {
  constructor(private readonly prefix: string) {}
  key(...parts: (string | number)[]): string {
    return this.prefix + parts.join(':');
  }
}

export function createRedis(url: string, name: string): Redis {
  return new Redis(url, {
    connectionName: name,
    // Commands wait (instead of failing) while Redis is briefly away, but not forever.
    maxRetriesPerRequest: 3,
    enableOfflineQueue: true,
    retryStrategy: (times) => Math.min(times * 200, 2_000),
  });
}

class RedisCloser implements OnApplicationShutdown {
  constructor(@Inject(REDIS) private readonly redis: Redis) {}
  async onApplicationShutdown() {
    await this.redis.quit().catch(() => this.redis.disconnect());
  }
}

@Global()
@Module({
  providers: [
    {
      provide: REDIS,
      inject: [APP_CONFIG],
      useFactory: (config: AppConfig) => createRedis(config.redisUrl, 'plink'),
    },
    { provide: RedisKeys, inject: [APP_CONFIG], useFactory: (config: AppConfig) => new RedisKeys(config.redisPrefix) },
    RedisCloser,
  ],
  exports: [REDIS, RedisKeys],
})
export class RedisModule {}
