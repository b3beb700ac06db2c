import type { Redis } from 'ioredis';
import { RedisKeys } from '@plink/redis';
import { ViewCounter } from './view-counter';

/** A Redis stand-in that records HINCRBY pipelines, and can fail. */
function fakeRedis() {
  const hash = new Map<string, number>();
  const state = { fail: false as false | 'all' | string, pipelines: 0 };
  const redis = {
    pipeline() {
      const ops: [string, number][] = [];
      const p = {
        hincrby(_key: string, field: string, n: number) {
          ops.push([field, n]);
          return p;
        },
        async exec() {
          state.pipelines += 1;
          if (state.fail === 'all') throw new Error('connection lost');
          return ops.map(([field, n]) => {
            if (state.fail === field) return [new Error('WRONGTYPE'), null];
            hash.set(field, (hash.get(field) ?? 0) + n);
            return [null, hash.get(field)];
          });
        },
      };
      return p;
    },
  };
  return { redis: redis as unknown as Redis, hash, state };
}

const BROWSER = 'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36';

describe('ViewCounter', () => {
  it('counts people and unknown clients in memory, not crawlers, and hands the sums to Redis in one pipeline', async () => {
    const { redis, hash, state } = fakeRedis();
    const counter = new ViewCounter(redis, new RedisKeys('t:'));
    counter.count(1, BROWSER);
    counter.count(1, 'curl/8.5.0');
    counter.count(1, undefined);
    counter.count(2, BROWSER);
    counter.count(1, 'Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)');
    counter.count(2, 'facebookexternalhit/1.1');
    counter.count(2, 'Twitterbot/1.0');
    expect(counter.pending()).toBe(4);
    await counter.flush();
    expect(state.pipelines).toBe(1);
    expect(Object.fromEntries(hash)).toEqual({ '1': 3, '2': 1 });
    expect(counter.pending()).toBe(0);
    await counter.flush();
    expect(state.pipelines).toBe(1); // nothing to send
    await counter.onModuleDestroy();
  });

  it('keeps the counts while Redis is away and sends them later', async () => {
    const { redis, hash, state } = fakeRedis();
    const counter = new ViewCounter(redis, new RedisKeys('t:'));
    counter.count(5, BROWSER);
    state.fail = 'all';
    await counter.flush();
    expect(counter.pending()).toBe(1);
    counter.count(5, BROWSER);
    state.fail = false;
    await counter.flush();
    expect(hash.get('5')).toBe(2);
    await counter.onModuleDestroy();
  });

  it('keeps only the counts whose command failed', async () => {
    const { redis, hash, state } = fakeRedis();
    const counter = new ViewCounter(redis, new RedisKeys('t:'));
    counter.count(1, BROWSER);
    counter.count(2, BROWSER);
    state.fail = '2';
    await counter.flush();
    expect(hash.get('1')).toBe(1);
    expect(counter.pending()).toBe(1);
    state.fail = false;
    await counter.flush();
    expect(Object.fromEntries(hash)).toEqual({ '1': 1, '2': 1 });
    await counter.onModuleDestroy();
  });

  it('flushes on its own every second, and everything on a clean stop', async () => {
    const { redis, hash } = fakeRedis();
    const counter = new ViewCounter(redis, new RedisKeys('t:'));
    counter.count(9, BROWSER);
    await new Promise((r) => setTimeout(r, 1_300));
    expect(hash.get('9')).toBe(1);
    counter.count(9, BROWSER);
    await counter.onModuleDestroy();
    expect(hash.get('9')).toBe(2);
  });
});
