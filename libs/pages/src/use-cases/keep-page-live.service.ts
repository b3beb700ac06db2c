import { Injectable, NotFoundException } from '@nestjs/common';
import { EntityManager } from '@mikro-orm/postgresql';
import { PageMessages, type KeepPageLiveResponse } from '@plink/contracts';
import { getLogger } from '@plink/observability';
import { PageChanges } from '../cache/page-changes';
import { decideKeepLive } from '../model/pause-rules';
import { PagesRepository } from '../model/pages.repository';
import { ListPagesService } from './list-pages.service';
import { PageEvents } from '../model/page-events';

/**
 * POST /api/pages/{id}/keep-live: a Free owner whose other pages were paused chooses the ONE page that
 * stays live; the page live before is paused ({@link decideKeepLive}). Under the owner's lock, like the
 * pausing on a plan change, so the two never leave two pages live. For a Pro owner every page is live.
 */
@Injectable()
export class KeepPageLiveService {
  constructor(
    private readonly em: EntityManager,
    private readonly pages: PagesRepository,
    private readonly changes: PageChanges,
    private readonly list: ListPagesService,
    private readonly events: PageEvents,
  ) {}

  async execute(user: { id: number; username: string; isPremium: boolean }, pageId: number, now = new Date()): Promise<KeepPageLiveResponse> {
    const changed = await this.em.fork().transactional(async (tx) => {
      await this.pages.lockOwner(tx, user.id);
      const pages = await this.pages.listForPausing(user.id, tx);
      if (!pages.some((p) => p.id === pageId)) throw new NotFoundException({ message: PageMessages.pageNotFound });
      const decision = decideKeepLive(pages, pageId, user.isPremium);
      await this.pages.setPaused(tx, user.id, decision.pause, now);
      await this.pages.setPaused(tx, user.id, decision.unpause, null);
      const ids = new Set([...decision.pause, ...decision.unpause]);
      const pausing = new Set(decision.pause);
      for (const page of pages) if (ids.has(page.id)) this.events.changed(tx, page, user, { paused: pausing.has(page.id) });
      return pages.filter((p) => ids.has(p.id)).map((p) => p.slug);
    });
    if (changed.length > 0) await this.changes.publish(changed);
    getLogger().info({ userId: user.id, pageId, changed: changed.length }, 'page kept live');
    return { message: PageMessages.keptLive, pages: await this.list.execute(user.id) };
  }
}
