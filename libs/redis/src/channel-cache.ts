import type { ChangeChannel } from './change-channel';
import { TtlCache } from './ttl-cache';

export interface ChannelCacheOptions {
  maxEntries: number;
  /** How long a found value is kept. */
  foundTtlMs: number;
  /** How long a "not found" (null) is kept: shorter, so a new entry shows soon even if its change was missed. */
  missingTtlMs: number;
}

/**
 * A per-process cache of values loaded by key (lower-cased), dropped when its {@link ChangeChannel} says the
 * key changed in any replica. Values are kept only while the channel's subscription is live (otherwise a
 * change could go unnoticed); a load that started before a change is not stored after it; loads of one key
 * that overlap share one query.
 */
export class ChannelCache<V> {
  private readonly cache: TtlCache<V | null>;
  private readonly loading = new Map<string, Promise<V | null>>();

  constructor(
    private readonly changes: ChangeChannel,
    private readonly options: ChannelCacheOptions,
  ) {
    this.cache = new TtlCache<V | null>(options.maxEntries);
    changes.onChange((key) => {
      if (key === null) {
        this.cache.clear();
        this.loading.clear();
      } else {
        this.cache.delete(key);
        this.loading.delete(key);
      }
    });
  }

  /** The value of `key` (any case): from the cache, or from `load` (given the lower-cased key). */
  get(key: string, load: (key: string) => Promise<V | null>): Promise<V | null> {
    const lower = key.toLowerCase();
    const cached = this.cache.get(lower);
    if (cached !== undefined) return Promise.resolve(cached);
    let pending = this.loading.get(lower);
    if (!pending) {
      const generation = this.cache.current();
      const live = this.changes.live();
      const { foundTtlMs, missingTtlMs } = this.options;
      pending = load(lower).then(
        (value) => {
          if (live) this.cache.setIfCurrent(generation, lower, value, value === null ? missingTtlMs : foundTtlMs);
          if (this.loading.get(lower) === pending) this.loading.delete(lower);
          return value;
        },
        (err: unknown) => {
          if (this.loading.get(lower) === pending) this.loading.delete(lower);
          throw err;
        },
      );
      this.loading.set(lower, pending);
    }
    return pending;
  }
}
