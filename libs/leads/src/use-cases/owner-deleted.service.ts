import { Injectable } from '@nestjs/common';
import { EntityManager } from '@mikro-orm/postgresql';
import { getLogger } from '@plink/observability';
import { PageFactsChanges } from '../page-facts/page-facts-changes';
import { DeletePageLeadsService } from './delete-page-leads.service';

/**
 * A page owner deleted their account (identity's 'user.deleted'): every lead, counter and submission count of
 * the pages the read model knows as theirs (their consent evidence and confirmation links go with the leads),
 * those pages' facts (left as tombstones that name no one), the owner's plan and their count of hooks. The pages service also has
 * each page's leads removed ('leads.delete-for-page'), for pages this copy never heard of; both are safe to
 * repeat, in any order. The consent texts are shared by every page that showed the same words: kept.
 */
/** The version of a page deleted with its owner's account: above any the pages service will record (ms since the epoch). */
const FOREVER = '9223372036854775807';

@Injectable()
export class LeadsOwnerDeletedService {
  constructor(
    private readonly em: EntityManager,
    private readonly pageLeads: DeletePageLeadsService,
    private readonly changes: PageFactsChanges,
  ) {}

  async execute(userId: number): Promise<void> {
    const pages = await this.em.fork().execute<{ page_id: number; slug: string | null }[]>(
      'select page_id, slug from leads.page_facts where owner_id = ?',
      [userId],
    );
    for (const page of pages) await this.pageLeads.execute(Number(page.page_id));
    await this.em.fork().transactional(async (tx) => {
      // Each page stays as a bare tombstone (its id only, deleted for good): a 'page.changed' about it still
      // in flight, older or newer, then finds a row no version can overtake and cannot bring the page back,
      // whatever order the queues run it in. A page id names nobody once the owner's row is gone.
      await tx.execute(
        `update leads.page_facts set slug = null, owner_id = null, owner_username = null, public = null, file_url = null,
                delivery_email = null, webhook_on = false, paused = false, deleted = true, version = ?
          where owner_id = ?`,
        [FOREVER, userId],
      );
      await tx.execute('delete from leads.owner_plans where owner_id = ?', [userId]);
      await tx.execute('delete from leads.owner_hooks where owner_id = ?', [userId]);
    });
    const slugs = pages.map((page) => page.slug).filter((slug): slug is string => !!slug);
    if (slugs.length > 0) await this.changes.publish(slugs);
    getLogger().info({ userId, pages: pages.length }, 'account deleted: leads removed');
  }
}
