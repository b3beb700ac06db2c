import { setTimeout as sleep } from 'node:timers/promises';
import { TtlCache } from './ttl-cache';

describe('TtlCache', () => {
  it('keeps values for their time to live', async () => {
    const cache = new TtlCache<string>(10);
    cache.setIfCurrent(cache.current(), 'a', 'A', 40);
    cache.setIfCurrent(cache.current(), 'b', 'B', 10_000);
    expect(cache.get('a')).toBe('A');
    await sleep(60);
    expect(cache.get('a')).toBeUndefined();
    expect(cache.get('b')).toBe('B');
    expect(cache.size).toBe(1);
  });

  it('keeps a cached null (a page that does not exist) apart from a miss', () => {
    const cache = new TtlCache<string | null>(10);
    cache.setIfCurrent(cache.current(), 'gone', null, 10_000);
    expect(cache.get('gone')).toBeNull();
    expect(cache.get('never-asked')).toBeUndefined();
  });

  it('drops the least recently used entry beyond its size cap', () => {
    const cache = new TtlCache<number>(2);
    for (const [i, key] of ['a', 'b', 'c'].entries()) cache.setIfCurrent(cache.current(), key, i, 10_000);
    expect(cache.get('a')).toBeUndefined();
    expect(cache.get('b')).toBe(1);
    expect(cache.get('c')).toBe(2);
    expect(cache.size).toBe(2);
  });

  it('does not store a value loaded before an invalidation', () => {
    const cache = new TtlCache<string>(10);
    const before = cache.current();
    cache.delete('x');
    cache.setIfCurrent(before, 'x', 'stale', 10_000);
    expect(cache.get('x')).toBeUndefined();
    cache.setIfCurrent(cache.current(), 'x', 'fresh', 10_000);
    expect(cache.get('x')).toBe('fresh');
    const beforeClear = cache.current();
    cache.clear();
    cache.setIfCurrent(beforeClear, 'y', 'stale', 10_000);
    expect(cache.get('x')).toBeUndefined();
    expect(cache.get('y')).toBeUndefined();
  });
});
