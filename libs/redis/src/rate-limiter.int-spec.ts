import { Redis } from 'ioredis';
import { ControlledRedis, deleteRedisPrefix, testRedisUrl, uniqueRedisPrefix } from '@plink/testing';
import { RedisKeys, RedisUnavailableError, createRedis, whenReady } from './redis.module';
import { RateLimiter } from './rate-limiter';

describe('rate limiter (real Redis)', () => {
  const prefix = uniqueRedisPrefix();
  const redis = new Redis(testRedisUrl());
  const limiter = new RateLimiter(redis, new RedisKeys(prefix));

  afterAll(async () => {
    await deleteRedisPrefix(testRedisUrl(), prefix);
    redis.disconnect();
  });

  it('allows `limit` hits per window and then says when to retry', async () => {
    const results = [];
    for (let i = 0; i < 4; i += 1) results.push(await limiter.hit('t', 'addr', 3, 60));
    expect(results.map((r) => r.allowed)).toEqual([true, true, true, false]);
    expect(results[3].retryAfterSeconds).toBeGreaterThan(0);
    expect((await limiter.hit('t', 'other-addr', 3, 60)).allowed).toBe(true);
  });

  it('hands out a cooldown once until it expires', async () => {
    expect((await limiter.takeCooldown('cd', 'u1', 30)).ok).toBe(true);
    const second = await limiter.takeCooldown('cd', 'u1', 30);
    expect(second.ok).toBe(false);
    expect(second.retryAfterSeconds).toBeGreaterThan(25);
  });

  it('frees a released cooldown at once, and keeps each bucket and id apart', async () => {
    expect((await limiter.takeCooldown('resend', 'u2', 60)).ok).toBe(true);
    expect((await limiter.takeCooldown('resend', 'u3', 60)).ok).toBe(true);
    expect((await limiter.takeCooldown('other', 'u2', 60)).ok).toBe(true);
    await limiter.releaseCooldown('resend', 'u2');
    expect((await limiter.takeCooldown('resend', 'u2', 60)).ok).toBe(true);
    expect((await limiter.takeCooldown('resend', 'u3', 60)).ok).toBe(false);
    expect((await limiter.takeCooldown('other', 'u2', 60)).ok).toBe(false);
  });

  it('starts counting afresh when the window is over', async () => {
    expect((await limiter.hit('short', 'addr', 1, 1)).allowed).toBe(true);
    const refused = await limiter.hit('short', 'addr', 1, 1);
    expect(refused).toMatchObject({ allowed: false, retryAfterSeconds: 1, count: 2 });
    await new Promise((resolve) => setTimeout(resolve, 1_100));
    expect(await limiter.hit('short', 'addr', 1, 1)).toEqual({ allowed: true, retryAfterSeconds: 0, count: 1 });
  });

  it('while Redis is away: lets request-rate limits through at once, and refuses cooldowns with RedisUnavailableError', async () => {
    const own = await ControlledRedis.start();
    const client = createRedis(own.url, 'rate-limit-test');
    const away = new RateLimiter(client, new RedisKeys(uniqueRedisPrefix()));
    expect(await whenReady(client, 5_000)).toBe(true);
    try {
      expect((await away.hit('t', 'addr', 1, 60)).allowed).toBe(true);
      expect((await away.hit('t', 'addr', 1, 60)).allowed).toBe(false);
      await own.stop();
      const started = Date.now();
      expect(await away.hit('t', 'addr', 1, 60)).toEqual({ allowed: true, retryAfterSeconds: 0, count: 0 });
      await expect(away.takeCooldown('cd', 'u1', 30)).rejects.toBeInstanceOf(RedisUnavailableError);
      expect(Date.now() - started).toBeLessThan(2_000);
    } finally {
      client.disconnect();
      await own.destroy();
    }
  });
});
