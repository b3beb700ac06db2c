import { Injectable } from '@nestjs/common';
import { EntityManager } from '@mikro-orm/postgresql';
import { getLogger } from '@plink/observability';
import { PageChanges } from '../cache/page-changes';
import { OwnersRepository } from '../owners/owners.repository';
import { PagesRepository } from '../model/pages.repository';
import { PageEvents } from '../model/page-events';

/**
 * A page owner changed their username (identity's 'user.renamed'). The copy of the owner takes it unless it
 * holds a newer one; then, as for a plan change, each of their pages is published again (`page.changed`: the
 * leads service's copy answers the new `/p/{username}/{slug}` form and names the new sender) and dropped from
 * every replica's cache, so visitors meet the new name at once: `/p/{new}/{slug}` answers, `/p/{old}/{slug}` is
 * a 404 (the old name is free for another creator). Under the owner's lock, like the other owner changes.
 */
@Injectable()
export class OwnerRenamedService {
  constructor(
    private readonly em: EntityManager,
    private readonly pages: PagesRepository,
    private readonly owners: OwnersRepository,
    private readonly changes: PageChanges,
    private readonly events: PageEvents,
  ) {}

  async execute(change: { userId: number; username: string; version: number }): Promise<void> {
    const slugs = await this.em.fork().transactional(async (tx) => {
      await this.pages.lockOwner(tx, change.userId);
      if (!(await this.owners.rename(tx, change))) return [];
      const owner = await this.owners.find(change.userId, tx);
      const pages = await this.pages.listForPausing(change.userId, tx);
      if (owner) for (const page of pages) this.events.changed(tx, page, owner);
      return pages.map((p) => p.slug);
    });
    if (slugs.length > 0) await this.changes.publish(slugs);
    getLogger().info({ userId: change.userId, version: change.version, pages: slugs.length }, 'owner renamed: pages follow the new name');
  }
}
