import { Inject, Injectable } from '@nestjs/common';
import type { Redis } from 'ioredis';
import { APP_CONFIG, type AppConfig } from '@plink/config';
import { ChangeChannel, REDIS, RedisKeys } from '@plink/redis';

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
