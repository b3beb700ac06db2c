import { Redis } from 'ioredis';
import { RateLimiter, RedisKeys } from '@plink/redis';
import { loadConfig } from '@plink/config';
import { deleteRedisPrefix, freePort, testRedisUrl, uniqueRedisPrefix } from '@plink/testing';
import { AuthRateLimits, loginBackoffSeconds } from './auth-rate-limits';

const config = loadConfig({ DATABASE_URL: 'postgres://unused/db', LOGIN_FAILURES_PER_ADDRESS: '50' });
const limitsOn = (redis: Redis, prefix: string) => {
  const keys = new RedisKeys(prefix);
  return new AuthRateLimits(new RateLimiter(redis, keys), config, redis, keys);
};
const status = (promise: Promise<unknown>) =>
  promise.then(
    () => 200,
    (err: { getStatus?: () => number }) => err.getStatus?.() ?? 500,
  );

describe('login backoff', () => {
  it('is free for 4 failures, then doubles from 1 s after the 5th, at most 15 minutes', () => {
    expect([1, 4, 5, 6, 7, 8, 14, 15, 40].map(loginBackoffSeconds)).toEqual([0, 0, 1, 2, 4, 8, 512, 900, 900]);
  });
});

describe('AuthRateLimits (real Redis)', () => {
  const prefix = uniqueRedisPrefix();
  const redis = new Redis(testRedisUrl());
  const limits = limitsOn(redis, prefix);

  afterAll(async () => {
    await deleteRedisPrefix(testRedisUrl(), prefix);
    redis.disconnect();
  });

  it("keeps its counts under the deployment's prefix, without e-mail addresses", async () => {
    for (let i = 0; i < 5; i += 1) await limits.recordLoginFailure('Someone@Example.com', '203.0.113.1');
    expect(await status(limits.assertLoginAllowed('someone@example.com', '203.0.113.1'))).toBe(429);
    expect(await status(limits.assertLoginAllowed('someone@example.com', '203.0.113.2'))).toBe(200);
    const keys = await redis.keys(`${prefix}*`);
    expect(keys.length).toBeGreaterThan(0);
    expect(keys.join(' ')).not.toMatch(/someone|example/i);
  });
});

describe('AuthRateLimits when Redis cannot be reached', () => {
  let redis: Redis;

  beforeAll(async () => {
    // Nothing listens there, and commands fail at once instead of waiting for a connection.
    redis = new Redis(`redis://127.0.0.1:${await freePort()}`, {
      lazyConnect: true,
      enableOfflineQueue: false,
      maxRetriesPerRequest: 0,
      retryStrategy: () => null,
    });
  });

  afterAll(() => redis.disconnect());

  it("still lets people log in, and still slows one pair down with this process's own counts", async () => {
    const limits = limitsOn(redis, uniqueRedisPrefix());
    expect(await status(limits.assertLoginAllowed('owner@example.com', '198.51.100.1'))).toBe(200);
    for (let i = 0; i < 5; i += 1) await limits.recordLoginFailure('owner@example.com', '203.0.113.9');
    expect(await status(limits.assertLoginAllowed('owner@example.com', '203.0.113.9'))).toBe(429);
    expect(await status(limits.assertLoginAllowed('owner@example.com', '198.51.100.1'))).toBe(200);
    await limits.clearLoginFailures('owner@example.com', '203.0.113.9');
    expect(await status(limits.assertLoginAllowed('owner@example.com', '203.0.113.9'))).toBe(200);
  });
});
