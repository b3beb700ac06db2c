import type { Provider } from '@nestjs/common';
import { LeadsDirectory, OwnedPagesReader, PageFactsFallback, PageVisitsReader } from '@plink/leads';
import { WebhookEndpointLookup } from '@plink/notifications';
import { ConversionsReader, PageAnalyticsRepository, PagesDirectory } from '@plink/pages';

/**
 * The ports services give each other, bound here, where every service is composed (no service lib
 * imports another for them):
 *
 * - ConversionsReader (pages shows each page's conversions) → the leads service's LeadsDirectory.
 * - OwnedPagesReader (leads' stats and export check the owner, and show the page's title and views) → the
 *   pages service's directory.
 * - PageVisitsReader (leads' stats show views, unique visitors and sources per day) → the pages service's
 *   analytics tables.
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
    provide: PageVisitsReader,
    inject: [PageAnalyticsRepository],
    useFactory: (analytics: PageAnalyticsRepository): PageVisitsReader => ({
      visits: async (pageId, from, to) => {
        const [days, sources] = await Promise.all([analytics.days(pageId, from, to), analytics.sources(pageId, from, to)]);
        return { days, sources };
      },
    }),
  },
  {
    provide: PageFactsFallback,
    inject: [PagesDirectory],
    useFactory: (pages: PagesDirectory): PageFactsFallback => ({ findBySlug: (slug) => pages.findPageFacts(slug) }),
  },
];

export const SERVICE_PORT_TOKENS = [ConversionsReader, OwnedPagesReader, PageFactsFallback, PageVisitsReader, WebhookEndpointLookup];
