import type { EntityManager } from '@mikro-orm/postgresql';
import type { WebhookEndpointState } from '@plink/contracts';
import type { Outbox } from '@plink/queue';
import { changeVersion } from '../model/change-version';
import type { Page } from '../model/page.entity';

const iso = (date: Date | null | undefined): string | null => (date ? new Date(date).toISOString() : null);

/** The webhook fields of a page as the notifications service's copy keeps them (secrets sealed, as stored). */
function endpointStateOf(page: Page): WebhookEndpointState {
  return {
    url: page.webhookUrl ?? null,
    secret: page.webhookSecret ?? null,
    previousSecret: page.webhookPreviousSecret ?? null,
    previousSecretUntil: iso(page.webhookPreviousSecretUntil),
    enabled: !page.webhookDisabledAt,
    enabledAt: iso(page.webhookEnabledAt),
  };
}

/** Whether a page has (or had) a webhook endpoint: a secret is made with its first URL and kept. */
export function hasWebhookEndpoint(page: Pick<Page, 'webhookUrl' | 'webhookSecret'>): boolean {
  return !!page.webhookUrl || !!page.webhookSecret;
}

/**
 * The notifications service delivers webhooks from its own copy of each endpoint (it reads no page): every
 * change of the endpoint (URL saved or cleared, secret rotated, turned on or off) is published as
 * 'webhook-endpoint.changed' in the unit of work that makes the change, so the copy follows once it commits.
 * Its `at` is the change's version, the one the page's `page.changed` of the same change carries.
 */
export function recordWebhookEndpoint(outbox: Outbox, em: EntityManager, page: Page): void {
  outbox.publish(em, 'webhook-endpoint.changed', {
    v: 1,
    pageId: page.id,
    ownerId: page.userId,
    at: new Date(changeVersion(em)).toISOString(),
    endpoint: endpointStateOf(page),
  });
}

/** The page is deleted: its endpoint is gone (published with the delete). */
export function recordWebhookEndpointRemoved(outbox: Outbox, em: EntityManager, page: Page): void {
  outbox.publish(em, 'webhook-endpoint.changed', { v: 1, pageId: page.id, ownerId: page.userId, at: new Date(changeVersion(em)).toISOString(), endpoint: null });
}
