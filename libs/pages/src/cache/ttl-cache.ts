/**
 * A small in-memory cache with a time to live and a size cap (the oldest entries go first), plus a
 * generation that every invalidation bumps: a value loaded before an invalidation is not stored after it
 * (`setIfCurrent`), so a slow load cannot bring back what a change just dropped.
 */
export class TtlCache<V> {
  private readonly entries = new Map<string, { value: V; expires: number }>();
  private generation = 0;

  constructor(private readonly maxEntries: number) {}

  get(key: string, now = Date.now()): V | undefined {
    const entry = this.entries.get(key);
    if (!entry) return undefined;
    if (entry.expires <= now) {
      this.entries.delete(key);
      return undefined;
    }
    return entry.value;
  }

  /** The generation to pass to {@link setIfCurrent} (read it before loading). */
  current(): number {
    return this.generation;
  }

  setIfCurrent(generation: number, key: string, value: V, ttlMs: number): void {
    if (generation !== this.generation) return;
    if (this.entries.size >= this.maxEntries && !this.entries.has(key)) {
      const oldest = this.entries.keys().next();
      if (!oldest.done) this.entries.delete(oldest.value);
    }
    this.entries.set(key, { value, expires: Date.now() + ttlMs });
  }

  delete(key: string): void {
    this.generation += 1;
    this.entries.delete(key);
  }

  /** Deletes every entry whose key passes the test. */
  deleteWhere(test: (key: string) => boolean): void {
    this.generation += 1;
    for (const key of this.entries.keys()) if (test(key)) this.entries.delete(key);
  }

  clear(): void {
    this.generation += 1;
    this.entries.clear();
  }

  get size(): number {
    return this.entries.size;
  }
}
