import { Global, Inject, Module, OnApplicationBootstrap, OnApplicationShutdown } from '@nestjs/common';
import { Redis } from 'ioredis';
import { APP_CONFIG, type AppConfig } from '@plink/config';
import { warnThrottled } from '@plink/observability';
import { failFastRedisOptions } from './redis-options';

export * from './redis-options';

/** Injection token of the shared ioredis client (commands; BullMQ opens its own connections). */
export const REDIS = Symbol('REDIS');

/** Builds the full Redis key of a Plink key, under this deployment's prefix. */
export class RedisKeys {
  constructor(private readonly prefix: string) {}
  key(...parts: (string | number)[]): string {
    return this.prefix + parts.join(':');
  }
}

/**
 * A fail-fast client (see {@link failFastRedisOptions}): while Redis is away its commands fail at once,
 * and its connection errors are logged at a bounded rate; it reconnects by itself.
 */
export function createRedis(url: string, name: string): Redis {
  const redis = new Redis(url, failFastRedisOptions(name));
  redis.on('error', (err) => warnThrottled(`redis:${name}`, err, 'Redis connection problem; reconnecting'));
  return redis;
}

/** Resolves once the client is connected, or after `ms` (never rejects). */
export function whenReady(redis: Redis, ms: number): Promise<boolean> {
  if (redis.status === 'ready') return Promise.resolve(true);
  return new Promise((resolve) => {
    const done = (ok: boolean) => {
      clearTimeout(timer);
      redis.off('ready', onReady);
      resolve(ok);
    };
    const onReady = () => done(true);
    const timer = setTimeout(() => done(false), ms);
    redis.once('ready', onReady);
  });
}

/** Closes a client politely when it is connected, at once otherwise (a QUIT to a missing Redis waits). */
export async function closeRedis(redis: Redis): Promise<void> {
  if (redis.status === 'ready') {
    const quit = redis.quit().catch(() => undefined);
    if (await Promise.race([quit.then(() => true), new Promise((r) => setTimeout(() => r(false), 1_000).unref())])) return;
  }
  redis.disconnect();
}

class RedisLifecycle implements OnApplicationBootstrap, OnApplicationShutdown {
  constructor(@Inject(REDIS) private readonly redis: Redis) {}

  /** A process starting beside Redis answers its first requests normally: wait (a little) for the link. */
  async onApplicationBootstrap() {
    await whenReady(this.redis, 5_000);
  }

  async onApplicationShutdown() {
    await closeRedis(this.redis);
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
    RedisLifecycle,
  ],
  exports: [REDIS, RedisKeys],
})
export class RedisModule {}
