import { Injectable } from '@nestjs/common';
import { getLogger } from '@plink/observability';
import { Page } from '../model/page.entity';
import { PagesRepository } from '../model/pages.repository';
import { PageRemoval } from './page-removal';
import { TrashClock } from './trash-clock';
import { TRASH_MS } from './trash.service';

/** Pages read per pass of the loop (each is removed in its own short transaction). */
const PURGE_BATCH = 100;

/**
 * 'pages.purge-trash' (every hour): removes for good the pages whose 14 days in the Trash are over, each as
 * "Delete forever" does. A page restored meanwhile is left alone (its removal re-checks it in its transaction).
 */
@Injectable()
export class PurgeTrashService {
  constructor(
    private readonly pages: PagesRepository,
    private readonly removal: PageRemoval,
    private readonly clock: TrashClock,
  ) {}

  async execute(now = this.clock.now()): Promise<number> {
    const cutoff = new Date(now.getTime() - TRASH_MS);
    let purged = 0;
    for (;;) {
      const due = await this.pages.listTrashedBefore(cutoff, PURGE_BATCH);
      for (const page of due) {
        const removed = await this.removal.remove((tx) => tx.findOne(Page, { id: page.id, deletedAt: { $ne: null, $lt: cutoff } }));
        if (removed) purged++;
      }
      if (due.length < PURGE_BATCH) break;
    }
    getLogger().info({ purged }, 'pages in the Trash for 14 days removed');
    return purged;
  }
}
