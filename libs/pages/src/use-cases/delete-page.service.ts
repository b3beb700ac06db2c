import { Injectable, NotFoundException } from '@nestjs/common';
import { PageMessages, UploadUrls } from '@plink/contracts';
import { Outbox } from '@plink/queue';
import { PageChanges } from '../cache/page-changes';
import { PagesRepository } from '../model/pages.repository';
import { PageEvents } from '../model/page-events';
import { hasWebhookEndpoint, recordWebhookEndpointRemoved } from '../webhooks/webhook-endpoint-events';

/**
 * Deletes one of the user's own pages. Its leads belong to the leads service: the job that removes them
 * ('leads.delete-for-page') is recorded in the same transaction, so it runs once the delete is committed,
 * even if Redis is away at that moment. So is the job that removes the page's uploaded images
 * ('pages.delete-uploads'; it keeps any that another page still shows).
 */
@Injectable()
export class DeletePageService {
  constructor(
    private readonly pages: PagesRepository,
    private readonly outbox: Outbox,
    private readonly changes: PageChanges,
    private readonly uploads: UploadUrls,
    private readonly events: PageEvents,
  ) {}

  async execute(userId: number, pageId: number): Promise<void> {
    const page = await this.pages.deleteOwned(pageId, userId, (tx, deleted) => {
      this.outbox.record(tx, 'leads.delete-for-page', { v: 1, pageId: deleted.id });
      this.events.deleted(tx, deleted.id);
      const keys = this.uploads.ownKeysOf(deleted, userId);
      if (keys.length > 0) this.outbox.record(tx, 'pages.delete-uploads', { v: 1, keys });
      if (hasWebhookEndpoint(deleted)) recordWebhookEndpointRemoved(this.outbox, tx, deleted);
    });
    if (!page) throw new NotFoundException({ message: PageMessages.pageNotFound });
    await this.changes.publish([page.slug]);
  }
}
