import { randomUUID } from 'node:crypto';
import { Injectable } from '@nestjs/common';
import { getLogger } from '@plink/observability';
import { PageAnalyticsRepository } from './page-analytics.repository';
import { PendingAnalyticsStore } from './pending-analytics.store';

/**
 * Moves the analytics buffered in Redis into PostgreSQL, run by the same job as the views' flush: takes the
 * pending hash (a batch a crashed flush left first), reads each page-day's unique visitors from its
 * HyperLogLog, adds it all in one transaction that records the batch id (so a retried batch counts once),
 * then deletes it.
 */
@Injectable()
export class FlushAnalyticsService {
  constructor(
    private readonly pending: PendingAnalyticsStore,
    private readonly analytics: PageAnalyticsRepository,
  ) {}

  /** Answers how many views reached the day rows. */
  async execute(): Promise<number> {
    let total = 0;
    for (let round = 0; round < 2; round += 1) {
      const batch = await this.pending.claim(randomUUID());
      if (!batch) break;
      const applied = (batch.days.length > 0 || batch.sources.length > 0) && (await this.analytics.apply(batch));
      await this.pending.release(batch.batchId);
      if (applied) {
        const views = batch.days.reduce((sum, d) => sum + d.views, 0);
        total += views;
        getLogger().debug({ days: batch.days.length, sources: batch.sources.length, views }, 'analytics flushed');
      }
    }
    return total;
  }
}
