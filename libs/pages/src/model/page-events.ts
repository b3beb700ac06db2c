import { Injectable } from '@nestjs/common';
import type { EntityManager } from '@mikro-orm/postgresql';
import type { PageFacts } from '@plink/contracts';
import { Outbox } from '@plink/platform';
import { toPublicPage, type PageOwner } from './page.dto';
import type { Page } from './page.entity';

/** The page's owner as the facts need them. */
export interface PageEventOwner extends PageOwner {
  id: number;
}

/**
 * Tells the other services that a page changed, through the outbox, in the unit of work that changes it
 * ('leads.page-changed': the leads service keeps what a submission needs in its own read model). Every
 * change of what a visitor's page is records one: creating, editing, deleting, pausing or un-pausing it,
 * turning its webhook off or on, and its owner's plan changing (Pro decides the branding, custom code,
 * tracking and webhooks of every page of the owner).
 *
 * The event's version is the time it is recorded, taken after the page's row is locked or written where
 * the caller can: changes of one page then carry increasing versions (on one clock; replicas on hosts whose
 * clocks differ by more than the time between two changes of one page could order them wrongly).
 */
@Injectable()
export class PageEvents {
  constructor(private readonly outbox: Outbox) {}

  /** `page` as it is now (its fields assigned), `owner` its owner now; `paused` when the row says otherwise than the entity. */
  changed(em: EntityManager, page: Page, owner: PageEventOwner, options: { formerSlug?: string; paused?: boolean } = {}): void {
    const formerSlug = options.formerSlug && options.formerSlug.toLowerCase() !== page.slug.toLowerCase() ? options.formerSlug : null;
    this.outbox.record(em, 'leads.page-changed', {
      v: 1,
      pageId: page.id,
      version: Date.now(),
      formerSlug,
      page: factsOf(page, owner, options.paused ?? !!page.pausedAt),
    });
  }

  /** The page is gone (deleted, or its owner is). */
  deleted(em: EntityManager, pageId: number): void {
    this.outbox.record(em, 'leads.page-changed', { v: 1, pageId, version: Date.now(), formerSlug: null, page: null });
  }
}

/** What a submission needs of the page (see the 'leads.page-changed' contract). */
export function factsOf(page: Page, owner: PageEventOwner, paused: boolean): PageFacts {
  return {
    slug: page.slug,
    ownerId: owner.id,
    ownerUsername: owner.username,
    paused,
    fileUrl: page.fileUrl ?? null,
    // Only a Pro owner's page with its webhook on sends webhooks.
    sendsWebhook: owner.isPremium && !page.webhookDisabledAt && !!page.webhookUrl,
    public: toPublicPage(page, owner) as unknown as Record<string, unknown>,
  };
}
