import { Inject, Injectable } from '@nestjs/common';
import type { Redis } from 'ioredis';
import { warnThrottled } from '../logging/throttled-log';
import { REDIS, RedisKeys, isRedisUnavailableError, needsRedis } from '../redis/redis.module';

export interface RateDecision {
  allowed: boolean;
  /** Seconds until the caller may try again (0 when allowed). */
  retryAfterSeconds: number;
  count: number;
}

/**
 * Fixed-window counters and cooldowns in Redis, shared by every replica.
 * `hit` counts one event against `limit` per `windowSeconds` for `key`.
 * (Wrong passwords are counted by the identity service's own limiters.)
 *
 * While Redis is away: `hit` (request-rate limits: lead submissions, auth calls, uploads) fails open at
 * once and lets the request through, so an outage never turns visitors away; cooldowns guard against
 * repeated e-mails, so they fail closed with a {@link RedisUnavailableError} (503).
 */
@Injectable()
export class RateLimiter {
  constructor(
    @Inject(REDIS) private readonly redis: Redis,
    private readonly keys: RedisKeys,
  ) {}

  async hit(bucket: string, id: string, limit: number, windowSeconds: number): Promise<RateDecision> {
    const window = Math.floor(Date.now() / 1000 / windowSeconds);
    const key = this.keys.key('rl', bucket, id, window);
    let count: number;
    try {
      [[, count]] = (await this.redis.multi().incr(key).expire(key, windowSeconds + 1).exec()) as [[null, number]];
    } catch (err) {
      if (!isRedisUnavailableError(err)) throw err;
      warnThrottled('rate-limit', err, 'rate limit not checked: Redis unreachable; letting requests through', { bucket });
      return { allowed: true, retryAfterSeconds: 0, count: 0 };
    }
    const retry = windowSeconds - (Math.floor(Date.now() / 1000) % windowSeconds);
    return { allowed: count <= limit, retryAfterSeconds: count <= limit ? 0 : retry, count };
  }

  /** A one-shot cooldown: true when it was free (and is now taken for `seconds`). */
  async takeCooldown(bucket: string, id: string, seconds: number): Promise<{ ok: boolean; retryAfterSeconds: number }> {
    const key = this.keys.key('cd', bucket, id);
    const ok = await needsRedis(this.redis.set(key, '1', 'EX', seconds, 'NX'));
    if (ok) return { ok: true, retryAfterSeconds: 0 };
    const ttl = await needsRedis(this.redis.ttl(key));
    return { ok: false, retryAfterSeconds: Math.max(1, ttl) };
  }

  async releaseCooldown(bucket: string, id: string): Promise<void> {
    await needsRedis(this.redis.del(this.keys.key('cd', bucket, id)));
  }
}
