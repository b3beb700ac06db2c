export const pagesKeys = {
  all: ['pages'] as const,
  lists: () => [...pagesKeys.all, 'list'] as const,
  /** The signed-in user's pages: keyed by user, so a change of user never shows another's list. */
  list: (userId: number) => [...pagesKeys.lists(), userId] as const,
  /** The signed-in user's pages' views per day (the dashboard's sparklines). */
  dailyViews: (userId: number) => [...pagesKeys.all, 'daily-views', userId] as const,
  details: () => [...pagesKeys.all, 'detail'] as const,
  detail: (id: number) => [...pagesKeys.details(), id] as const,
  stats: (id: number) => [...pagesKeys.all, 'stats', id] as const,
  /** The page's webhook endpoint and delivery log (Pro). */
  webhook: (id: number) => [...pagesKeys.all, 'webhook', id] as const,
  /** Whether the page is under attack (its visitors confirm by e-mail). */
  protection: (id: number) => [...pagesKeys.all, 'protection', id] as const,
  /** Whether a slug is free for a page (0: a new page). */
  slugAvailability: (slug: string, pageId = 0) => [...pagesKeys.all, 'slug-availability', slug, pageId] as const,
};
