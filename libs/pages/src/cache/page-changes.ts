import { Inject, Injectable, OnApplicationShutdown } from '@nestjs/common';
import type { Redis } from 'ioredis';
import { APP_CONFIG, REDIS, RedisKeys, createRedis, getLogger, type AppConfig } from '@plink/platform';

/** `slug` (lower-case) when one page changed; null when everything cached must go (e.g. after a Redis outage). */
export type PageChangeListener = (slug: string | null) => void;

/**
 * Tells every process that a page changed, so their in-memory caches of visitor pages drop it. The change
 * is applied here at once and published on the Redis channel `{prefix}pages:changed` (payload: the slug)
 * for the other replicas. Pub/sub delivers at most once, so caches may only keep entries while the
 * subscription is live (`live()`); whenever it drops, every listener is told to clear everything.
 */
@Injectable()
export class PageChanges implements OnApplicationShutdown {
  private readonly listeners = new Set<PageChangeListener>();
  private subscriber?: Redis;
  private subscribed = false;
  private closed = false;

  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    @Inject(REDIS) private readonly redis: Redis,
    private readonly keys: RedisKeys,
  ) {}

  get channel(): string {
    return this.keys.key('pages', 'changed');
  }

  onChange(listener: PageChangeListener): void {
    this.listeners.add(listener);
  }

  /**
   * Whether a cache may keep entries now: the subscription is up, so no change can go unnoticed.
   * The first call opens the subscription (processes that never cache never subscribe).
   */
  live(): boolean {
    if (!this.subscriber && !this.closed) this.subscribe();
    return this.subscribed;
  }

  /** Pages with these slugs changed (after the commit): drop them here now, and everywhere else soon. */
  async publish(slugs: string[]): Promise<void> {
    const unique = [...new Set(slugs.map((s) => s.toLowerCase()))];
    for (const slug of unique) this.notify(slug);
    try {
      await Promise.all(unique.map((slug) => this.redis.publish(this.channel, slug)));
    } catch (err) {
      // The other replicas' subscriptions are down too, so they are not caching (see live()).
      getLogger().warn({ err: { message: (err as Error).message } }, 'pages: could not publish a page change');
    }
  }

  private notify(slug: string | null): void {
    for (const listener of this.listeners) listener(slug);
  }

  private subscribe(): void {
    const subscriber = createRedis(this.config.redisUrl, 'plink-pages-changes');
    this.subscriber = subscriber;
    subscriber.on('message', (channel: string, slug: string) => {
      if (channel === this.channel) this.notify(slug);
    });
    const down = () => {
      if (!this.subscribed) return;
      this.subscribed = false;
      this.notify(null);
    };
    subscriber.on('close', down);
    subscriber.on('error', () => undefined); // ioredis reconnects by itself; `close` already stopped caching
    // ioredis subscribes again by itself after a reconnect; caching resumes once that is confirmed.
    subscriber.on('ready', () => {
      void subscriber
        .subscribe(this.channel)
        .then(() => {
          if (!this.closed) this.subscribed = true;
        })
        .catch(() => undefined);
    });
  }

  async onApplicationShutdown() {
    this.closed = true;
    this.subscribed = false;
    await this.subscriber?.quit().catch(() => this.subscriber?.disconnect());
  }
}
