import type { Provider } from '@nestjs/common';
import { LeadsDirectory, OwnedPagesReader, PageFactsFallback } from '@plink/leads';
import { WebhookEndpointLookup } from '@plink/notifications';
import { ConversionsReader, PagesDirectory } from '@plink/pages';

/**
 * The ports services give each other, bound here, where every service is composed (no service lib
 * imports another for them):
 *
 * - ConversionsReader (pages shows each page's conversions) → the leads service's LeadsDirectory.
 * - OwnedPagesReader (leads' stats and export check the owner, and show the page's title and views) → the
 *   pages service's directory.
 * - PageFactsFallback (a submission for a slug the leads read model does not know yet) → the pages
 *   service's page now, as the facts its 'page.changed' events carry (one rule, pages' factsOf).
 * - WebhookEndpointLookup (the owner's webhook calls: the endpoint as it is now, so a URL just saved shows at
 *   once) → the pages service's directory.
 */
export const SERVICE_PORTS: Provider[] = [
  { provide: WebhookEndpointLookup, useExisting: PagesDirectory },
  { provide: ConversionsReader, useExisting: LeadsDirectory },
  {
    provide: OwnedPagesReader,
    inject: [PagesDirectory],
    useFactory: (pages: PagesDirectory): OwnedPagesReader => ({ findOwned: (pageId, userId) => pages.findOwned(pageId, userId) }),
  },
  {
    provide: PageFactsFallback,
    inject: [PagesDirectory],
    useFactory: (pages: PagesDirectory): PageFactsFallback => ({ findBySlug: (slug) => pages.findPageFacts(slug) }),
  },
];

export const SERVICE_PORT_TOKENS = [ConversionsReader, OwnedPagesReader, PageFactsFallback, WebhookEndpointLookup];
