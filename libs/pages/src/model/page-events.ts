import { Injectable } from '@nestjs/common';
import type { EntityManager } from '@mikro-orm/postgresql';
import { PAGE_LIMITS, type DeliveryEmailFacts, type PageFacts } from '@plink/contracts';
import { Outbox } from '@plink/queue';
import { changeVersion } from './change-version';
import { toPublicPage, type PageOwner } from './page.dto';
import type { Page } from './page.entity';

/** The page's owner as the facts need them. */
export interface PageEventOwner extends PageOwner {
  id: number;
  /** The owner's account e-mail, when known: the delivery e-mail's reply-to unless the page names one. */
  email?: string | null;
}

/**
 * Publishes 'page.changed' in the unit of work that changes the page (the leads service keeps what a
 * submission needs in its own read model). Every change of what a visitor's page is publishes one: creating,
 * editing, deleting, pausing or un-pausing it, turning its webhook off or on, and its owner's plan applied to
 * it (Pro decides the branding, custom code and tracking of every page of the owner). Its version is the
 * change's ({@link changeVersion}).
 */
@Injectable()
export class PageEvents {
  constructor(private readonly outbox: Outbox) {}

  /** `page` as it is now (its fields assigned), `owner` its owner now; `paused` when the row says otherwise than the entity. */
  changed(em: EntityManager, page: Page, owner: PageEventOwner, options: { formerSlug?: string; paused?: boolean } = {}): void {
    const formerSlug = options.formerSlug && options.formerSlug.toLowerCase() !== page.slug.toLowerCase() ? options.formerSlug : null;
    this.outbox.publish(em, 'page.changed', {
      v: 1,
      pageId: page.id,
      version: changeVersion(em),
      formerSlug,
      page: factsOf(page, owner, options.paused ?? !!page.pausedAt),
    });
  }

  /** The page is gone (deleted, or its owner is). */
  deleted(em: EntityManager, pageId: number): void {
    this.outbox.publish(em, 'page.changed', { v: 1, pageId, version: changeVersion(em), formerSlug: null, page: null });
  }
}

/** What a submission needs of the page (see the 'page.changed' event). */
export function factsOf(page: Page, owner: PageEventOwner, paused: boolean): PageFacts {
  return {
    slug: page.slug,
    ownerId: owner.id,
    ownerUsername: owner.username,
    paused,
    fileUrl: page.fileUrl ?? null,
    // Whether the owner's plan lets it send is the leads service's call, from billing's own 'plan.changed'.
    webhookOn: !page.webhookDisabledAt && !!page.webhookUrl,
    public: toPublicPage(page, owner) as unknown as Record<string, unknown>,
    deliveryEmail: deliveryEmailOf(page, owner),
  };
}

/**
 * The page's delivery e-mail with the fallbacks the pages service knows: the sender is the page's own name,
 * else its author name, else the owner's username; the reply-to the page's own, else the owner's e-mail.
 */
export function deliveryEmailOf(
  page: Pick<Page, 'emailSenderName' | 'emailReplyTo' | 'emailSubject' | 'emailBody' | 'authorName'>,
  owner: Pick<PageEventOwner, 'username' | 'email'>,
): DeliveryEmailFacts {
  const senderName = page.emailSenderName?.trim() || page.authorName?.trim() || owner.username || 'Plink';
  return {
    senderName: senderName.slice(0, PAGE_LIMITS.emailSenderName),
    replyTo: page.emailReplyTo || owner.email || null,
    subject: page.emailSubject || null,
    bodyHtml: page.emailBody || null,
  };
}
