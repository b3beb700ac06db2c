import { Inject, Injectable } from '@nestjs/common';
import type { Redis } from 'ioredis';
import { APP_CONFIG, ChangeChannel, REDIS, RedisKeys, type AppConfig } from '@plink/platform';

/**
 * Tells every process that a page changed (its slug), so their in-memory caches of visitor pages drop it:
 * the Redis channel `{prefix}pages:changed`.
 */
@Injectable()
export class PageChanges extends ChangeChannel {
  constructor(@Inject(APP_CONFIG) config: AppConfig, @Inject(REDIS) redis: Redis, keys: RedisKeys) {
    super(config, redis, keys, { service: 'pages', topic: 'changed', what: 'a page change' });
  }
}
