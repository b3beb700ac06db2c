import { LRUCache } from 'lru-cache';

/**
 * An in-memory cache with a time to live per entry and a size cap (lru-cache: the least recently used entry
 * goes first), plus a generation that every invalidation bumps: a value loaded before an invalidation is not
 * stored after it (`setIfCurrent`), so a slow load cannot bring back what a change just dropped.
 * Values may be `null` (a cached "not found").
 */
export class TtlCache<V> {
  private readonly entries: LRUCache<string, { value: V }>;
  private generation = 0;

  constructor(maxEntries: number) {
    this.entries = new LRUCache({ max: maxEntries });
  }

  get(key: string): V | undefined {
    return this.entries.get(key)?.value;
  }

  /** The generation to pass to {@link setIfCurrent} (read it before loading). */
  current(): number {
    return this.generation;
  }

  setIfCurrent(generation: number, key: string, value: V, ttlMs: number): void {
    if (generation !== this.generation) return;
    this.entries.set(key, { value }, { ttl: ttlMs });
  }

  delete(key: string): void {
    this.generation += 1;
    this.entries.delete(key);
  }

  clear(): void {
    this.generation += 1;
    this.entries.clear();
  }

  get size(): number {
    return this.entries.size;
  }
}
