import { createHash, randomBytes } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import { Inject, Injectable, OnModuleDestroy } from '@nestjs/common';
import type { Redis } from 'ioredis';
import { APP_CONFIG, type AppConfig } from '@plink/config';
import { REDIS, RedisKeys } from '@plink/redis';
import { getLogger } from '@plink/observability';
import { isCrawler } from '../views/crawler';
import { campaignOf, deviceClass, referrerDomain, utcDay, type SourceKind } from '@plink/http';

/** How often a process hands its counted visits to Redis (as the view counter does). */
export const ANALYTICS_FLUSH_INTERVAL_MS = 1_000;

/** Distinct visitors kept in memory between two flushes; past it a flush starts at once. */
const VISITORS_HIGH_WATER = 20_000;
/** Past this (Redis away for long), new visitors are no longer remembered: views still count, uniques may fall short. */
const VISITORS_MAX = 200_000;

/** How long a day's visitor set and salt stay in Redis (the day, plus late flushes). */
export const DAY_KEYS_TTL_SECONDS = 3 * 24 * 3600;

/** The Redis hash of counts not yet in the database: field `pageId|day|kind|value` → count. */
export function pendingAnalyticsKey(keys: RedisKeys): string {
  return keys.key('analytics', 'pending');
}

/** The HyperLogLog of a page's visitors of one UTC day. */
export function visitorsKey(keys: RedisKeys, pageId: number, day: string): string {
  return keys.key('analytics', 'uv', pageId, day);
}

/** What the counter needs of one visit. `ip` and `userAgent` are only hashed, never kept past the next flush. */
export interface Visit {
  ip: string | undefined;
  userAgent: string | undefined;
  referer: string | undefined;
  /** The page address as asked (path and query). */
  url: string | undefined;
}

interface DayCounts {
  pageId: number;
  day: string;
  views: number;
  /** `ip \n user agent` of this interval's visitors (hashed with the day's salt at the flush). */
  visitors: Set<string>;
  /** `kind|value` → views. */
  sources: Map<string, number>;
}

/**
 * Counts a page's views, unique visitors and sources per UTC day, without a cookie and without a database
 * write (or a Redis call) per request: like {@link ViewCounter}, each process adds up in memory and, every
 * second, sends its counts to Redis in one pipeline — HINCRBY into a pending hash for views and sources,
 * PFADD of each visitor's hash into the day's HyperLogLog (a fixed 12 KB per page and day, however many
 * visitors). The pages worker moves the hash and the HyperLogLog counts into PostgreSQL with the view batches.
 *
 * A visitor is `sha256(day's salt, IP, user agent)`: the salt is random, one per UTC day, shared by the
 * replicas through Redis and gone with the day's keys, so a hash can't be tied back to an address, and the
 * same person counts again the next day. Raw IP and user agent stay in this process's memory until the next
 * flush (about a second), and are written nowhere.
 */
@Injectable()
export class AnalyticsCounter implements OnModuleDestroy {
  private days = new Map<string, DayCounts>();
  private visitors = 0;
  private timer?: NodeJS.Timeout;
  private flushing?: Promise<void>;
  private lastWarning = 0;
  private readonly salts = new Map<string, Buffer>();
  private readonly ownHosts: string[];
  private readonly trustProxy: AppConfig['trustProxy'];
  /** The clock (tests set their own). */
  now: () => number = Date.now;

  constructor(
    @Inject(REDIS) private readonly redis: Redis,
    private readonly keys: RedisKeys,
    @Inject(APP_CONFIG) config: AppConfig,
  ) {
    const hosts = [hostOf(config.appOrigin), hostOf(config.publicOrigin)];
    this.ownHosts = [...new Set(hosts.filter((h): h is string => !!h))];
    this.trustProxy = config.trustProxy;
  }

  /** A visit of a page by a raw request (the fast path); crawlers are ignored. */
  countRequest(pageId: number, request: IncomingMessage): void {
    const headers = request.headers;
    const userAgent = headers['user-agent'];
    if (isCrawler(userAgent)) return;
    this.record(pageId, { ip: this.addressOf(request), userAgent, referer: headers.referer, url: request.url }, headers.host);
  }

  /** A visit as its parts (a caller that knows the client's address already); crawlers are ignored. */
  count(pageId: number, visit: Visit, host?: string): void {
    if (isCrawler(visit.userAgent)) return;
    this.record(pageId, visit, host);
  }

  private record(pageId: number, visit: Visit, host: string | undefined): void {
    const day = utcDay(this.now());
    const id = `${pageId}|${day}`;
    let counts = this.days.get(id);
    if (!counts) {
      counts = { pageId, day, views: 0, visitors: new Set(), sources: new Map() };
      this.days.set(id, counts);
    }
    counts.views += 1;
    if (this.visitors < VISITORS_MAX) {
      const before = counts.visitors.size;
      counts.visitors.add(`${visit.ip ?? ''}\n${visit.userAgent ?? ''}`);
      this.visitors += counts.visitors.size - before;
    }
    const own = host ? [host.split(':')[0].toLowerCase(), ...this.ownHosts] : this.ownHosts;
    const referrer = referrerDomain(visit.referer, own);
    if (referrer) add(counts.sources, 'referrer', referrer);
    const campaign = campaignOf(visit.url);
    if (campaign.utmSource) add(counts.sources, 'utm_source', campaign.utmSource);
    if (campaign.utmMedium) add(counts.sources, 'utm_medium', campaign.utmMedium);
    if (campaign.utmCampaign) add(counts.sources, 'utm_campaign', campaign.utmCampaign);
    add(counts.sources, 'device', deviceClass(visit.userAgent));

    if (this.visitors >= VISITORS_HIGH_WATER && !this.flushing) void this.flush();
    if (!this.timer) {
      this.timer = setInterval(() => void this.flush(), ANALYTICS_FLUSH_INTERVAL_MS);
      this.timer.unref();
    }
  }

  /** Views counted here and not yet handed to Redis (for tests). */
  pending(): number {
    let total = 0;
    for (const c of this.days.values()) total += c.views;
    return total;
  }

  /** Hands the counts to Redis now; on failure they stay here for the next try. */
  flush(): Promise<void> {
    if (this.flushing) return this.flushing;
    if (this.days.size === 0) return Promise.resolve();
    const batch = this.days;
    this.days = new Map();
    this.visitors = 0;
    this.flushing = this.send(batch)
      .catch((err: Error) => this.keep(batch, err))
      .finally(() => {
        this.flushing = undefined;
      });
    return this.flushing;
  }

  private async send(batch: Map<string, DayCounts>): Promise<void> {
    const pendingKey = pendingAnalyticsKey(this.keys);
    const pipeline = this.redis.pipeline();
    for (const c of batch.values()) {
      const salt = await this.saltOf(c.day);
      const prefix = `${c.pageId}|${c.day}|`;
      pipeline.hincrby(pendingKey, `${prefix}views|`, c.views);
      for (const [source, n] of c.sources) pipeline.hincrby(pendingKey, prefix + source, n);
      if (c.visitors.size > 0) {
        const key = visitorsKey(this.keys, c.pageId, c.day);
        pipeline.pfadd(key, ...[...c.visitors].map((v) => createHash('sha256').update(salt).update(v).digest('base64url').slice(0, 22)));
        pipeline.expire(key, DAY_KEYS_TTL_SECONDS);
      }
    }
    const results = await pipeline.exec();
    if (!results) throw new Error('pipeline discarded');
    const failed = results.find(([err]) => err);
    // A partly applied pipeline is rare (a full Redis); counting again what did arrive would double it: report.
    if (failed) getLogger().warn({ err: { message: failed[0]!.message } }, 'analytics: part of a flush was refused by Redis');
  }

  /** The day's salt: random, shared by every replica through Redis, dropped with the day's keys. */
  private async saltOf(day: string): Promise<Buffer> {
    const known = this.salts.get(day);
    if (known) return known;
    const key = this.keys.key('analytics', 'salt', day);
    await this.redis.set(key, randomBytes(32).toString('base64'), 'EX', DAY_KEYS_TTL_SECONDS, 'NX');
    const stored = await this.redis.get(key);
    if (!stored) throw new Error('no salt');
    const salt = Buffer.from(stored, 'base64');
    if (this.salts.size > 4) this.salts.clear();
    this.salts.set(day, salt);
    return salt;
  }

  private keep(batch: Map<string, DayCounts>, err: Error): void {
    for (const [id, c] of batch) {
      const now = this.days.get(id);
      if (!now) {
        this.days.set(id, c);
        this.visitors += c.visitors.size;
        continue;
      }
      now.views += c.views;
      for (const [s, n] of c.sources) now.sources.set(s, (now.sources.get(s) ?? 0) + n);
      for (const v of c.visitors) {
        if (this.visitors >= VISITORS_MAX || now.visitors.has(v)) continue;
        now.visitors.add(v);
        this.visitors += 1;
      }
    }
    if (Date.now() - this.lastWarning > 10_000) {
      this.lastWarning = Date.now();
      getLogger().warn({ err: { message: err.message }, days: batch.size }, 'analytics: Redis unreachable, keeping counts in memory');
    }
  }

  /**
   * The client's address as the proxies in front are trusted (TRUST_PROXY): the socket's address, or the
   * X-Forwarded-For entry that many hops from the right. With a list of proxy addresses, the right-most
   * entry is taken (one proxy hop): good enough to tell visitors apart, never used for a security decision.
   */
  private addressOf(request: IncomingMessage): string | undefined {
    const socket = request.socket?.remoteAddress;
    if (this.trustProxy === false) return socket;
    const header = request.headers['x-forwarded-for'];
    const forwarded = (Array.isArray(header) ? header.join(',') : (header ?? '')).split(',').map((s) => s.trim()).filter((s) => s !== '');
    const chain = [socket, ...forwarded.reverse()];
    const hops = typeof this.trustProxy === 'number' ? this.trustProxy : 1;
    return chain[Math.min(hops, chain.length - 1)];
  }

  async onModuleDestroy() {
    if (this.timer) clearInterval(this.timer);
    this.timer = undefined;
    await this.flushing;
    await this.flush();
  }
}

/** A visit as Fastify sees the request (its `ip` honours TRUST_PROXY). */
export function visitOf(request: { ip: string; headers: IncomingMessage['headers']; url: string }): Visit {
  return { ip: request.ip, userAgent: request.headers['user-agent'], referer: request.headers.referer, url: request.url };
}

function add(sources: Map<string, number>, kind: SourceKind, value: string): void {
  const key = `${kind}|${value}`;
  sources.set(key, (sources.get(key) ?? 0) + 1);
}

function hostOf(origin: string | undefined): string | undefined {
  if (!origin) return undefined;
  try {
    return new URL(origin).hostname.toLowerCase();
  } catch {
    return undefined;
  }
}
