import { Injectable } from '@nestjs/common';
import { EntityManager } from '@mikro-orm/postgresql';
import { Outbox } from '@plink/queue';
import { getLogger } from '@plink/observability';
import { OwnersRepository } from '../owners/owners.repository';
import { PagesRepository } from '../model/pages.repository';

/**
 * The lead-removal date of a downgraded owner has come ('pages.remove-paused-leads', recorded once by
 * billing): the leads of each of their paused pages are removed by the leads service, which owns them
 * ('leads.delete-contacts-for-page', recorded here in one transaction; views and conversion counts stay).
 * The live page keeps its leads. An owner who is Pro again (as the pages service's copy of the owner has
 * it) keeps everything.
 */
@Injectable()
export class RemovePausedLeadsService {
  constructor(
    private readonly em: EntityManager,
    private readonly pages: PagesRepository,
    private readonly owners: OwnersRepository,
    private readonly outbox: Outbox,
  ) {}

  /** Answers the ids of the pages whose leads are to be removed. */
  async execute(userId: number): Promise<number[]> {
    const owner = await this.owners.find(userId);
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
    getLogger().info({ userId, pages: pageIds.length }, 'leads of paused pages: removal recorded');
    return pageIds;
  }

  /**
   * The warning a week before (billing decided it is due): only to a user who still has paused pages. Whether
   * the user is Pro again, and where to write, identity knows: it addresses the e-mail ('identity.account-email').
   */
  async warn(userId: number, removalAt: string): Promise<void> {
    if ((await this.pages.pausedIdsOf(userId)).length === 0) {
      getLogger().info({ userId }, 'lead-removal warning skipped: no paused pages');
      return;
    }
    const em = this.em.fork();
    this.outbox.record(em, 'identity.account-email', { v: 1, userId, email: 'email.lead-removal-warning', content: { removalAt } });
    await em.flush();
  }
}
