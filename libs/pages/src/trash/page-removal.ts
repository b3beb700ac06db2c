import { Injectable } from '@nestjs/common';
import type { EntityManager } from '@mikro-orm/postgresql';
import { UploadUrls } from '@plink/contracts';
import { Outbox } from '@plink/queue';
import { PageChanges } from '../cache/page-changes';
import { PageEvents } from '../model/page-events';
import type { Page } from '../model/page.entity';
import { PagesRepository } from '../model/pages.repository';
import { hasWebhookEndpoint, recordWebhookEndpointRemoved } from '../webhooks/webhook-endpoint-events';

/**
 * Removes a page of the Trash for good ("Delete forever", or the purge when its 14 days are over): the row
 * goes (its analytics rows with it, on delete cascade), and in the same transaction the jobs that follow are
 * recorded, so they run once it commits even if Redis is away: its leads ('leads.delete-for-page') and its
 * own uploads no other page shows ('pages.delete-uploads'). Copies of the page heard it was gone when it went
 * to the Trash; they are told again (newer version), which changes nothing for them.
 */
@Injectable()
export class PageRemoval {
  constructor(
    private readonly pages: PagesRepository,
    private readonly outbox: Outbox,
    private readonly events: PageEvents,
    private readonly uploads: UploadUrls,
    private readonly changes: PageChanges,
  ) {}

  /** Answers the removed page, or null when `find` found none in the Trash (restored or removed meanwhile). */
  async remove(find: (em: EntityManager) => Promise<Page | null>): Promise<Page | null> {
    const page = await this.pages.removeTrashed(find, (tx, removed) => {
      this.outbox.record(tx, 'leads.delete-for-page', { v: 1, pageId: removed.id });
      this.events.deleted(tx, removed.id);
      const keys = this.uploads.ownKeysOf(removed, removed.userId);
      if (keys.length > 0) this.outbox.record(tx, 'pages.delete-uploads', { v: 1, keys });
      if (hasWebhookEndpoint(removed)) recordWebhookEndpointRemoved(this.outbox, tx, removed);
    });
    // Its slug is free now: a "not found" some replica kept of it is not, any more, for a page made with it.
    if (page) await this.changes.publish([page.slug]);
    return page;
  }
}
