import { Inject, Injectable } from '@nestjs/common';
import type { Redis } from 'ioredis';
import { REDIS, RedisKeys } from '@plink/redis';
import { pendingViewsKey } from './view-counter';

/** Marks which flush a processing hash belongs to (a field no page id can take). */
export const BATCH_FIELD = '_batch';

/**
 * Takes the pending hash for processing, atomically: a processing hash left by a crashed flush is taken
 * again first (with its batch id); otherwise the pending hash is renamed to the processing key and given a
 * new batch id, so views counted from now on start a new pending hash.
 */
export const CLAIM = `
if redis.call('EXISTS', KEYS[2]) == 0 then
  if redis.call('EXISTS', KEYS[1]) == 0 then return {} end
  redis.call('RENAME', KEYS[1], KEYS[2])
end
redis.call('HSETNX', KEYS[2], '${BATCH_FIELD}', ARGV[1])
return redis.call('HGETALL', KEYS[2])`;

/** Deletes the processing hash only if it is still the batch just applied. */
export const RELEASE = `
if redis.call('HGET', KEYS[1], '${BATCH_FIELD}') == ARGV[1] then return redis.call('DEL', KEYS[1]) end
return 0`;

export interface ClaimedViews {
  batchId: string;
  views: [pageId: number, count: number][];
}

const MAX_PAGE_ID = 2_147_483_647;

/** The buffered views in Redis, as the flush job sees them. */
@Injectable()
export class PendingViewsStore {
  constructor(
    @Inject(REDIS) private readonly redis: Redis,
    private readonly keys: RedisKeys,
  ) {}

  private get processingKey(): string {
    return this.keys.key('views', 'processing');
  }

  /** The batch to apply now, or null when no view is waiting. */
  async claim(newBatchId: string): Promise<ClaimedViews | null> {
    const flat = (await this.redis.eval(CLAIM, 2, pendingViewsKey(this.keys), this.processingKey, newBatchId)) as string[];
    if (flat.length === 0) return null;
    let batchId = newBatchId;
    const views: [number, number][] = [];
    for (let i = 0; i + 1 < flat.length; i += 2) {
      const [field, value] = [flat[i], flat[i + 1]];
      if (field === BATCH_FIELD) {
        batchId = value;
        continue;
      }
      const pageId = Number(field);
      const count = Number(value);
      if (Number.isSafeInteger(pageId) && pageId > 0 && pageId <= MAX_PAGE_ID && Number.isSafeInteger(count) && count > 0) {
        views.push([pageId, count]);
      }
    }
    return { batchId, views };
  }

  /** The batch is in the database: forget it. */
  async release(batchId: string): Promise<void> {
    await this.redis.eval(RELEASE, 1, this.processingKey, batchId);
  }
}
