import { Inject, Injectable } from '@nestjs/common';
import type { Redis } from 'ioredis';
import { REDIS, RedisKeys } from '@plink/redis';
import { BATCH_FIELD, CLAIM, RELEASE } from '../views/pending-views.store';
import { pendingAnalyticsKey, visitorsKey } from './analytics-counter';
import { SOURCE_KINDS, type SourceKind } from '@plink/http';

export interface DayCount {
  pageId: number;
  day: string;
  views: number;
  /** The day's unique visitors so far (the HyperLogLog's count, not an increment). */
  uniques: number;
}

export interface SourceCount {
  pageId: number;
  day: string;
  kind: SourceKind;
  value: string;
  views: number;
}

export interface ClaimedAnalytics {
  batchId: string;
  days: DayCount[];
  sources: SourceCount[];
}

const MAX_PAGE_ID = 2_147_483_647;
const DAY = /^\d{4}-\d{2}-\d{2}$/;

/** The buffered analytics in Redis, as the flush job sees them (taken and released like the views' batches). */
@Injectable()
export class PendingAnalyticsStore {
  constructor(
    @Inject(REDIS) private readonly redis: Redis,
    private readonly keys: RedisKeys,
  ) {}

  private get processingKey(): string {
    return this.keys.key('analytics', 'processing');
  }

  /** The batch to apply now (with each page-day's unique visitors counted by PFCOUNT), or null. */
  async claim(newBatchId: string): Promise<ClaimedAnalytics | null> {
    const flat = (await this.redis.eval(CLAIM, 2, pendingAnalyticsKey(this.keys), this.processingKey, newBatchId)) as string[];
    if (flat.length === 0) return null;
    let batchId = newBatchId;
    const days = new Map<string, DayCount>();
    const sources: SourceCount[] = [];
    for (let i = 0; i + 1 < flat.length; i += 2) {
      const [field, value] = [flat[i], flat[i + 1]];
      if (field === BATCH_FIELD) {
        batchId = value;
        continue;
      }
      const parts = field.split('|');
      if (parts.length < 4) continue;
      const [page, day, kind] = parts;
      const pageId = Number(page);
      const n = Number(value);
      if (!(Number.isSafeInteger(pageId) && pageId > 0 && pageId <= MAX_PAGE_ID && DAY.test(day) && Number.isSafeInteger(n) && n > 0)) continue;
      if (kind === 'views') {
        const id = `${pageId}|${day}`;
        const d = days.get(id) ?? { pageId, day, views: 0, uniques: 0 };
        d.views += n;
        days.set(id, d);
      } else if ((SOURCE_KINDS as readonly string[]).includes(kind)) {
        sources.push({ pageId, day, kind: kind as SourceKind, value: parts.slice(3).join('|'), views: n });
      }
    }
    const list = [...days.values()];
    if (list.length > 0) {
      const pipeline = this.redis.pipeline();
      for (const d of list) pipeline.pfcount(visitorsKey(this.keys, d.pageId, d.day));
      const counts = (await pipeline.exec()) ?? [];
      list.forEach((d, i) => {
        const [err, count] = counts[i] ?? [];
        d.uniques = err ? 0 : Number(count);
      });
    }
    return { batchId, days: list, sources };
  }

  /** The batch is in the database: forget it. */
  async release(batchId: string): Promise<void> {
    await this.redis.eval(RELEASE, 1, this.processingKey, batchId);
  }
}
