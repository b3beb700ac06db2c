import { TtlCache } from './ttl-cache';

describe('TtlCache', () => {
  it('keeps values for their time to live', () => {
    const cache = new TtlCache<string>(10);
    cache.setIfCurrent(cache.current(), 'a', 'A', 1_000);
    expect(cache.get('a')).toBe('A');
    expect(cache.get('a', Date.now() + 1_001)).toBeUndefined();
    expect(cache.size).toBe(0);
  });

  it('drops the oldest entry beyond its size cap', () => {
    const cache = new TtlCache<number>(2);
    for (const [i, key] of ['a', 'b', 'c'].entries()) cache.setIfCurrent(cache.current(), key, i, 10_000);
    expect(cache.get('a')).toBeUndefined();
    expect(cache.get('b')).toBe(1);
    expect(cache.get('c')).toBe(2);
  });

  it('does not store a value loaded before an invalidation', () => {
    const cache = new TtlCache<string>(10);
    const before = cache.current();
    cache.delete('x');
    cache.setIfCurrent(before, 'x', 'stale', 10_000);
    expect(cache.get('x')).toBeUndefined();
    cache.setIfCurrent(cache.current(), 'x', 'fresh', 10_000);
    cache.deleteWhere((k) => k === 'x');
    expect(cache.get('x')).toBeUndefined();
  });
});
