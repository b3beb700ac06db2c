import { randomUUID } from 'node:crypto';
import { Injectable } from '@nestjs/common';
import { getLogger, recordViewFlush } from '@plink/observability';
import { PagesRepository } from '../model/pages.repository';
import { PendingViewsStore } from '../views/pending-views.store';

/**
 * Moves the views buffered in Redis into the database: takes the pending hash (or a batch a crashed flush
 * left behind, first), adds it to the pages in one batched UPDATE, then deletes it. Applying a batch is
 * idempotent (its id is recorded in the same transaction), so a crash at any step neither loses nor
 * double-counts views.
 */
@Injectable()
export class FlushViewsService {
  constructor(
    private readonly pending: PendingViewsStore,
    private readonly pages: PagesRepository,
  ) {}

  /** Answers how many views reached the database. */
  async execute(): Promise<number> {
    let total = 0;
    // A leftover batch is applied first; then the views pending now.
    for (let round = 0; round < 2; round += 1) {
      const batch = await this.pending.claim(randomUUID());
      if (!batch) break;
      const applied = batch.views.length > 0 && (await this.pages.addViews(batch.batchId, batch.views));
      await this.pending.release(batch.batchId);
      if (applied) {
        const views = batch.views.reduce((sum, [, n]) => sum + n, 0);
        total += views;
        getLogger().debug({ pages: batch.views.length, views }, 'views flushed');
      }
    }
    recordViewFlush();
    return total;
  }
}
