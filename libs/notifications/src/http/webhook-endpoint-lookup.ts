import type { WebhookEndpointDto } from '@plink/contracts';

/** A page's webhook endpoint as its owner's calls need it, read now from the pages service. */
export interface OwnedWebhookEndpoint {
  pageId: number;
  ownerId: number;
  slug: string;
  title: string;
  /** The page's public address (`{PUBLIC_ORIGIN}/{slug}`). */
  pageUrl: string;
  url: string | null;
  /** The secrets that sign now, opened (the new one first; two during 24 h after a rotation). */
  secrets: string[];
  /** The endpoint as GET /api/pages/{id}/webhook shows it. */
  view: WebhookEndpointDto;
}

/**
 * The port behind the owner's webhook calls: the page's endpoint as the pages service has it right now (the
 * owner saves a URL in the editor and opens the webhook panel, or sends a test event, at once: an eventually
 * updated copy would show the old URL). The notifications service does not import the pages service: the
 * process that composes the HTTP app binds this to the pages service's read API (the gateway does).
 */
export abstract class WebhookEndpointLookup {
  /** The page's endpoint, or null when there is no such page. */
  abstract findWebhookTarget(pageId: number): Promise<OwnedWebhookEndpoint | null>;

  /** The user's page of this id (a hook subscribed to one page), or null when it is not theirs or not there. */
  abstract findOwned(pageId: number, userId: number): Promise<{ id: number } | null>;
}
