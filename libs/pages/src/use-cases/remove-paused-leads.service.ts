import { Injectable } from '@nestjs/common';
import { EntityManager } from '@mikro-orm/postgresql';
import { IdentityDirectory } from '@plink/identity';
import { Outbox, getLogger } from '@plink/platform';
import { PagesRepository } from '../pages/pages.repository';

/**
 * The lead-removal date of a downgraded owner has come ('pages.remove-paused-leads', recorded once by
 * billing): the leads of each of their paused pages are removed by the leads service, which owns them
 * ('leads.delete-contacts-for-page', recorded here in one transaction; views and conversion counts stay).
 * The live page keeps its leads. An owner who is Pro again keeps everything.
 */
@Injectable()
export class RemovePausedLeadsService {
  constructor(
    private readonly em: EntityManager,
    private readonly pages: PagesRepository,
    private readonly identity: IdentityDirectory,
    private readonly outbox: Outbox,
  ) {}

  /** Answers the ids of the pages whose leads are to be removed. */
  async execute(userId: number): Promise<number[]> {
    const owner = await this.identity.findContact(userId);
    if (!owner || owner.isPremium) {
      getLogger().info({ userId }, 'lead removal skipped: the owner is Pro again or gone');
      return [];
    }
    const pageIds = await this.em.fork().transactional(async (tx) => {
      await this.pages.lockOwner(tx, userId);
      const ids = await this.pages.pausedIdsOf(userId, tx);
      for (const pageId of ids) this.outbox.record(tx, 'leads.delete-contacts-for-page', { v: 1, pageId });
      return ids;
    });
    if (pageIds.length > 0) this.outbox.kick();
    getLogger().info({ userId, pages: pageIds.length }, 'leads of paused pages: removal recorded');
    return pageIds;
  }
}
