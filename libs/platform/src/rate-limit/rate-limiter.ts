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
 * Fixed-window counters in Redis, shared by every replica.
 * `hit` counts one event against `limit` per `windowSeconds` for `key`.
 *
 * While Redis is away: `hit` (request-rate limits: lead submissions, auth calls, uploads) fails open at
 * once and lets the request through, so an outage never turns visitors away; the other calls guard
 * against guessing and repeated e-mails, so they fail closed with a {@link RedisUnavailableError} (503).
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

  /**
   * Sliding-window count of recorded events (e.g. failed logins): `record` adds one, `check` says
   * whether `limit` events happened within the last `windowSeconds` and when the oldest ages out.
   */
  async record(bucket: string, id: string, windowSeconds: number): Promise<void> {
    const key = this.keys.key('sw', bucket, id);
    const now = Date.now();
    await needsRedis(
      this.redis
        .multi()
        .zadd(key, now, `${now}:${Math.random().toString(36).slice(2)}`)
        .zremrangebyscore(key, 0, now - windowSeconds * 1000)
        .pexpire(key, windowSeconds * 1000)
        .exec(),
    );
  }

  async check(bucket: string, id: string, limit: number, windowSeconds: number): Promise<RateDecision> {
    const key = this.keys.key('sw', bucket, id);
    const now = Date.now();
    const since = now - windowSeconds * 1000;
    const entries = await needsRedis(this.redis.zrangebyscore(key, since, '+inf', 'WITHSCORES'));
    const scores = entries.filter((_, i) => i % 2 === 1).map(Number);
    if (scores.length < limit) return { allowed: true, retryAfterSeconds: 0, count: scores.length };
    // Blocked until enough events age out that fewer than `limit` remain in the window.
    const unblockAt = scores[scores.length - limit] + windowSeconds * 1000;
    return { allowed: false, retryAfterSeconds: Math.max(1, Math.ceil((unblockAt - now) / 1000)), count: scores.length };
  }

  async clear(bucket: string, id: string): Promise<void> {
    await needsRedis(this.redis.del(this.keys.key('sw', bucket, id)));
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
