import type { OnApplicationShutdown } from '@nestjs/common';
import type { Redis } from 'ioredis';
import type { AppConfig } from '@plink/config';
import { getLogger } from '@plink/observability';
import { createRedis, type RedisKeys } from './redis.module';

/** `key` (lower-case) when one entry changed; null when everything cached must go (e.g. after a Redis outage). */
export type ChangeListener = (key: string | null) => void;

/** Where a channel's changes go: the Redis channel `{prefix}{service}:{topic}`, and how its logs name it. */
export interface ChangeChannelName {
  service: string;
  topic: string;
  /** What changed, for the log line when a change cannot be published ("a page change"). */
  what: string;
}

/**
 * Tells every process that cached entries changed, so their in-memory caches drop them. A change is applied
 * here at once and published on a Redis channel (payload: the key) for the other replicas. Pub/sub delivers
 * at most once, so caches may only keep entries while the subscription is live (`live()`); whenever it
 * drops, every listener is told to clear everything. A service makes its own channel by extending this
 * class with its name (the pages service's visitor pages, the leads service's page facts).
 */
export abstract class ChangeChannel implements OnApplicationShutdown {
  private readonly listeners = new Set<ChangeListener>();
  private subscriber?: Redis;
  private subscribed = false;
  private closed = false;

  protected constructor(
    private readonly config: AppConfig,
    private readonly redis: Redis,
    private readonly keys: RedisKeys,
    private readonly name: ChangeChannelName,
  ) {}

  get channel(): string {
    return this.keys.key(this.name.service, this.name.topic);
  }

  onChange(listener: ChangeListener): void {
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

  /** These keys changed (after the commit): drop them here now, and everywhere else soon. */
  async publish(keys: string[]): Promise<void> {
    const unique = [...new Set(keys.map((k) => k.toLowerCase()))];
    for (const key of unique) this.notify(key);
    try {
      await Promise.all(unique.map((key) => this.redis.publish(this.channel, key)));
    } catch (err) {
      // The other replicas' subscriptions are down too, so they are not caching (see live()).
      getLogger().warn({ err: { message: (err as Error).message } }, `${this.name.service}: could not publish ${this.name.what}`);
    }
  }

  private notify(key: string | null): void {
    for (const listener of this.listeners) listener(key);
  }

  private subscribe(): void {
    const subscriber = createRedis(this.config.redisUrl, `plink-${this.name.service}-${this.name.topic}`);
    this.subscriber = subscriber;
    subscriber.on('message', (channel: string, key: string) => {
      if (channel === this.channel) this.notify(key);
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
