import { Inject, Injectable } from '@nestjs/common';
import type { Redis } from 'ioredis';
import { RateLimiterRedis, RateLimiterRes } from 'rate-limiter-flexible';
import { warnThrottled } from '@plink/observability';
import { REDIS, RedisKeys, isRedisUnavailableError, needsRedis } from './redis.module';

export interface RateDecision {
  allowed: boolean;
  /** Seconds until the caller may try again (0 when allowed). */
  retryAfterSeconds: number;
  count: number;
}

/**
 * Request-rate limits and cooldowns in Redis, shared by every replica: rate-limiter-flexible's Redis
 * counters on the process's shared client, under this deployment's key prefix. A window starts with the
 * first event of a key and lasts `windowSeconds`.
 * `hit` counts one event against `limit` per `windowSeconds` for `key`.
 * (Wrong passwords are counted by the identity service's own limiters.)
 *
 * While Redis is away: `hit` (request-rate limits: lead submissions, auth calls, uploads) fails open at
 * once and lets the request through, so an outage never turns visitors away; cooldowns guard against
 * repeated e-mails, so they fail closed with a {@link RedisUnavailableError} (503).
 */
@Injectable()
export class RateLimiter {
  private readonly counters = new Map<string, RateLimiterRedis>();

  constructor(
    @Inject(REDIS) private readonly redis: Redis,
    private readonly keys: RedisKeys,
  ) {}

  async hit(bucket: string, id: string, limit: number, windowSeconds: number): Promise<RateDecision> {
    let res: RateLimiterRes;
    try {
      res = await consumed(this.counter('rl', bucket, limit, windowSeconds), id);
    } catch (err) {
      if (!isRedisUnavailableError(err)) throw err;
      warnThrottled('rate-limit', err, 'rate limit not checked: Redis unreachable; letting requests through', { bucket });
      return { allowed: true, retryAfterSeconds: 0, count: 0 };
    }
    const allowed = res.consumedPoints <= limit;
    return { allowed, retryAfterSeconds: allowed ? 0 : secondsUntil(res), count: res.consumedPoints };
  }

  /** A one-shot cooldown: true when it was free (and is now taken for `seconds`). */
  async takeCooldown(bucket: string, id: string, seconds: number): Promise<{ ok: boolean; retryAfterSeconds: number }> {
    const res = await needsRedis(consumed(this.counter('cd', bucket, 1, seconds), id));
    if (res.consumedPoints <= 1) return { ok: true, retryAfterSeconds: 0 };
    return { ok: false, retryAfterSeconds: secondsUntil(res) };
  }

  async releaseCooldown(bucket: string, id: string): Promise<void> {
    // Deleting a key does not depend on the counter's points or duration.
    await needsRedis(this.counter('cd', bucket, 1, 1).delete(id));
  }

  /** One counter per kind, bucket, limit and window (keys `{prefix}{kind}:{bucket}:{id}`). */
  private counter(kind: 'rl' | 'cd', bucket: string, points: number, seconds: number): RateLimiterRedis {
    const name = `${kind}\u0000${bucket}\u0000${points}\u0000${seconds}`;
    let counter = this.counters.get(name);
    if (!counter) {
      counter = new RateLimiterRedis({ storeClient: this.redis, keyPrefix: this.keys.key(kind, bucket), points, duration: seconds });
      this.counters.set(name, counter);
    }
    return counter;
  }
}

/** consume() rejects with the counter's state once over the limit; here both ways give the state. */
function consumed(counter: RateLimiterRedis, id: string): Promise<RateLimiterRes> {
  return counter.consume(id).catch((res: unknown) => {
    if (res instanceof RateLimiterRes) return res;
    throw res;
  });
}

function secondsUntil(res: RateLimiterRes): number {
  return Math.max(1, Math.ceil(res.msBeforeNext / 1000));
}
