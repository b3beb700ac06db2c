import { Inject, Injectable, OnModuleDestroy } from '@nestjs/common';
import type { Redis } from 'ioredis';
import { REDIS, RedisKeys } from '@plink/redis';
import { getLogger } from '@plink/observability';
import { isCrawler } from './crawler';

/** How often a process hands its counted views to Redis. */
export const VIEW_FLUSH_INTERVAL_MS = 1_000;

/** The Redis hash (field: page id, value: views not yet in the database) shared by every process. */
export function pendingViewsKey(keys: RedisKeys): string {
  return keys.key('views', 'pending');
}

/**
 * Counts views without a database write, or even a Redis call, per request: each process adds them up in
 * memory and, every second, adds its counts to a Redis hash in one pipeline (HINCRBY per page). The pages
 * worker moves that hash into the database in batches (`pages.flush-views`). Crawlers are not counted.
 * A clean stop flushes what is left; a crash loses at most the last second.
 */
@Injectable()
export class ViewCounter implements OnModuleDestroy {
  private counts = new Map<number, number>();
  private timer?: NodeJS.Timeout;
  private flushing?: Promise<void>;
  private lastWarning = 0;

  constructor(
    @Inject(REDIS) private readonly redis: Redis,
    private readonly keys: RedisKeys,
  ) {}

  /** One view of a page by a visitor with this user agent (crawlers are ignored). */
  count(pageId: number, userAgent: string | undefined): void {
    if (isCrawler(userAgent)) return;
    this.counts.set(pageId, (this.counts.get(pageId) ?? 0) + 1);
    if (!this.timer) {
      this.timer = setInterval(() => void this.flush(), VIEW_FLUSH_INTERVAL_MS);
      this.timer.unref();
    }
  }

  /** Views counted here and not yet handed to Redis (for tests and health). */
  pending(): number {
    let total = 0;
    for (const n of this.counts.values()) total += n;
    return total;
  }

  /** Hands the counted views to Redis now; on failure they stay here for the next try. */
  flush(): Promise<void> {
    if (this.flushing) return this.flushing;
    if (this.counts.size === 0) return Promise.resolve();
    const batch = this.counts;
    this.counts = new Map();
    this.flushing = this.send(batch)
      .catch((err: Error) => {
        // Nothing reached Redis (or what did is unknown, as when the connection drops): keep it all.
        this.keep(batch, err);
      })
      .finally(() => {
        this.flushing = undefined;
      });
    return this.flushing;
  }

  private async send(batch: Map<number, number>): Promise<void> {
    const key = pendingViewsKey(this.keys);
    const entries = [...batch];
    const pipeline = this.redis.pipeline();
    for (const [pageId, n] of entries) pipeline.hincrby(key, String(pageId), n);
    const results = await pipeline.exec();
    if (!results) throw new Error('pipeline discarded');
    // Keep only the counts whose command failed (the others are in Redis already).
    const failed = new Map(entries.filter((_, i) => results[i]?.[0]));
    if (failed.size > 0) this.keep(failed, results.find(([err]) => err)![0]!);
  }

  private keep(batch: Map<number, number>, err: Error): void {
    for (const [pageId, n] of batch) this.counts.set(pageId, (this.counts.get(pageId) ?? 0) + n);
    if (Date.now() - this.lastWarning > 10_000) {
      this.lastWarning = Date.now();
      getLogger().warn({ err: { message: err.message }, pages: batch.size }, 'views: Redis unreachable, keeping counts in memory');
    }
  }

  /** A clean stop loses nothing: what is counted goes to Redis before the connection closes. */
  async onModuleDestroy() {
    if (this.timer) clearInterval(this.timer);
    this.timer = undefined;
    await this.flushing;
    await this.flush();
  }
}
