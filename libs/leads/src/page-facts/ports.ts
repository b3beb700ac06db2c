import type { PageFacts } from '@plink/contracts';

/**
 * Where a submission's page comes from when the read model does not know its slug yet: a page that existed
 * before the read model did (it is filled on first use), or one whose event is still on its way from
 * another process. The process that composes the services binds it to the pages service's own read API
 * (the gateway does); without it, such a slug is simply not found.
 */
export abstract class PageFactsFallback {
  /** The page of a slug (any case) as the pages service has it now, or null. */
  abstract findBySlug(slug: string): Promise<{ pageId: number; facts: PageFacts } | null>;
}

/** A page of the signed-in user, as the stats and the export need it. */
export interface OwnedPage {
  id: number;
  slug: string;
  title: string;
  /** The page's views (the pages service counts them). */
  views: number;
}

/**
 * The owner check of stats and export, with the page's title and views, which the pages service keeps
 * (views change many times a second, so they are not copied into the read model). Bound by the process
 * that composes the services (the gateway) to the pages service's read API.
 */
export abstract class OwnedPagesReader {
  /** A page of this user, or null when it is not theirs or does not exist. */
  abstract findOwned(pageId: number, userId: number): Promise<OwnedPage | null>;
}

/** A page's counted visits over a range of UTC days (`YYYY-MM-DD`, both included), as the pages service keeps them. */
export interface PageVisits {
  /** Days with a view, oldest first. */
  days: { day: string; views: number; uniques: number }[];
  /** Views per source value (kind: referrer, utm_source, utm_medium, utm_campaign, device), largest first. */
  sources: { kind: string; value: string; views: number }[];
}

/**
 * The stats' series and breakdowns of views: the pages service counts them (per page and day, aggregates
 * only). Bound by the process that composes the services (the gateway) to the pages service's analytics;
 * without it the stats answer zero views per day.
 */
export abstract class PageVisitsReader {
  abstract visits(pageId: number, from: string, to: string): Promise<PageVisits>;
}
