import { Injectable, NotFoundException } from '@nestjs/common';
import { EntityManager } from '@mikro-orm/postgresql';
import { PageMessages } from '@plink/contracts';
import { Outbox } from '@plink/platform';
import { PageChanges } from '../cache/page-changes';
import { PagesRepository } from '../pages/pages.repository';
import { UploadUrls } from '../uploads/upload-urls';

/**
 * Deletes one of the user's own pages. Its leads belong to the leads service: the job that removes them
 * ('leads.delete-for-page') is recorded in the same transaction, so it runs once the delete is committed,
 * even if Redis is away at that moment. So is the job that removes the page's uploaded images
 * ('pages.delete-uploads'; it keeps any that another page still shows).
 */
@Injectable()
export class DeletePageService {
  constructor(
    private readonly em: EntityManager,
    private readonly pages: PagesRepository,
    private readonly outbox: Outbox,
    private readonly changes: PageChanges,
    private readonly uploads: UploadUrls,
  ) {}

  async execute(userId: number, pageId: number): Promise<void> {
    const slug = await this.em.transactional(async (tx) => {
      const page = await this.pages.findOwned(pageId, userId, tx);
      if (!page) throw new NotFoundException({ message: PageMessages.pageNotFound });
      tx.remove(page);
      this.outbox.record(tx, 'leads.delete-for-page', { v: 1, pageId: page.id });
      const keys = this.uploads.ownKeysOf(page, userId);
      if (keys.length > 0) this.outbox.record(tx, 'pages.delete-uploads', { v: 1, keys });
      return page.slug;
    });
    this.outbox.kick();
    await this.changes.publish([slug]);
  }
}
