import { Inject, Injectable } from '@nestjs/common';
import type { Redis } from 'ioredis';
import { APP_CONFIG, type AppConfig } from '@plink/config';
import { ChangeChannel, REDIS, RedisKeys } from '@plink/redis';

/**
 * Tells every process that the leads service's read model of a page changed (its slug), so their in-memory
 * caches of submission pages drop it: the Redis channel `{prefix}leads:page-facts` (the process that applied
 * an event is not always the one that serves submissions).
 */
@Injectable()
export class PageFactsChanges extends ChangeChannel {
  constructor(@Inject(APP_CONFIG) config: AppConfig, @Inject(REDIS) redis: Redis, keys: RedisKeys) {
    super(config, redis, keys, { service: 'leads', topic: 'page-facts', what: 'a page facts change' });
  }
}
