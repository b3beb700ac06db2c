import { Injectable } from '@nestjs/common';
import { EntityManager } from '@mikro-orm/postgresql';
import { getLogger } from '@plink/observability';
import { PageChanges } from '../cache/page-changes';
import { OwnersRepository } from '../owners/owners.repository';
import { PagesRepository } from '../model/pages.repository';
import { PageEvents } from '../model/page-events';

/**
 * A page owner changed their username or e-mail (identity's 'user.changed'). The copy of the owner takes them
 * unless it holds a newer change; then, as for a plan change, each of their pages is published again
 * (`page.changed`: the leads service's copy answers the new `/p/{username}/{slug}` form, names the new sender
 * and replies to the new address) and dropped from
 * every replica's cache, so visitors meet the new name at once: `/p/{new}/{slug}` answers, `/p/{old}/{slug}` is
 * a 404 (the old name is free for another creator). Under the owner's lock, like the other owner changes.
 */
@Injectable()
export class OwnerProfileChangedService {
  constructor(
    private readonly em: EntityManager,
    private readonly pages: PagesRepository,
    private readonly owners: OwnersRepository,
    private readonly changes: PageChanges,
    private readonly events: PageEvents,
  ) {}

  async execute(change: { userId: number; username: string; email: string; version: number }): Promise<void> {
    const slugs = await this.em.fork().transactional(async (tx) => {
      await this.pages.lockOwner(tx, change.userId);
      if (!(await this.owners.applyProfile(tx, change))) return [];
      const owner = await this.owners.find(change.userId, tx);
      const pages = await this.pages.listForPausing(change.userId, tx);
      if (owner) for (const page of pages) this.events.changed(tx, page, owner);
      return pages.map((p) => p.slug);
    });
    if (slugs.length > 0) await this.changes.publish(slugs);
    getLogger().info({ userId: change.userId, version: change.version, pages: slugs.length }, 'owner changed their profile: pages follow');
  }
}
