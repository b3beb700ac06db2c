import { Redis } from 'ioredis';
import { RedisKeys } from '@plink/redis';
import { loadConfig } from '@plink/config';
import { deleteRedisPrefix, testRedisUrl, uniqueRedisPrefix } from '@plink/testing';
import { SessionStore } from './session.store';

describe('SessionStore (real Redis)', () => {
  const prefix = uniqueRedisPrefix();
  const redis = new Redis(testRedisUrl());
  const config = loadConfig({ DATABASE_URL: 'postgres://unused/db', SESSION_SECRET: 's'.repeat(40) });
  const store = new SessionStore(redis, new RedisKeys(prefix), config);

  afterAll(async () => {
    await deleteRedisPrefix(testRedisUrl(), prefix);
    redis.disconnect();
  });

  it('keeps only an HMAC of the session id in Redis, with a 30-day expiry', async () => {
    const id = await store.create(5);
    expect(await store.get(id)).toMatchObject({ userId: 5 });
    const keys = await redis.keys(`${prefix}session:*`);
    expect(keys).toHaveLength(1);
    expect(keys[0]).not.toContain(id);
    expect(await redis.ttl(keys[0])).toBeGreaterThan(29 * 24 * 3600);
    expect(await store.get('forged-session-id')).toBeNull();
    expect(await store.get(undefined)).toBeNull();
  });

  it('ends one session, or every session of a user but the one kept', async () => {
    const a = await store.create(9);
    const b = await store.create(9);
    const c = await store.create(9);
    const other = await store.create(10);
    await store.destroy(a);
    expect(await store.get(a)).toBeNull();
    expect(await store.destroyAllForUser(9, c)).toBe(1);
    expect(await store.get(b)).toBeNull();
    expect(await store.get(c)).toMatchObject({ userId: 9 });
    expect(await store.get(other)).toMatchObject({ userId: 10 });
    expect(await store.destroyAllForUser(9)).toBe(1);
    expect(await store.get(c)).toBeNull();
  });
});
