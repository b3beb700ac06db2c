import type { CreatePageRequest, DailyViewsDto, KeepPageLiveResponse, PageDto, PageStatsDto, SlugAvailabilityDto, UpdatePageRequest } from '@plink/contracts';
import { apiClient } from '../../../lib/api-client';

/** One function per endpoint of the pages API (pages and their stats). */

export const fetchPages = () => apiClient.get<PageDto[]>('/api/pages');

/** Each page's views per UTC day over the last 30 days (the dashboard's sparklines). */
export const fetchDailyViews = () => apiClient.get<DailyViewsDto>('/api/pages/daily-views');

export const fetchPage = (id: number) => apiClient.get<PageDto>(`/api/pages/${id}`);

export const createPage = (page: CreatePageRequest) => apiClient.post<PageDto>('/api/pages', page);

export const updatePage = (id: number, changes: UpdatePageRequest) =>
  apiClient.put<PageDto>(`/api/pages/${id}`, changes);

/** Moves the page to the Trash (14 days; POST …/restore brings it back). */
export const deletePage = (id: number) => apiClient.delete<unknown>(`/api/pages/${id}`);

/** Brings a page back from the Trash (the delete toast's Undo, Settings → Trash). */
export const restorePage = (id: number) => apiClient.post<PageDto>(`/api/pages/${id}/restore`);

/** A Free owner with paused pages chooses the one page that stays live (the page live before is paused). */
export const keepPageLive = (id: number) => apiClient.post<KeepPageLiveResponse>(`/api/pages/${id}/keep-live`);

/** GET /api/slug-availability: whether a page could take this address now (`pageId`: the page being edited). */
export const fetchSlugAvailability = (slug: string, pageId?: number) =>
  apiClient.get<SlugAvailabilityDto>(`/api/slug-availability?${new URLSearchParams({ slug, ...(pageId ? { pageId: String(pageId) } : {}) })}`);

/** The stats, with the series and breakdowns of `range` (UTC days; without one the server answers the last 30). */
export const fetchPageStats = (id: number, range?: { from: string; to: string }) =>
  apiClient.get<PageStatsDto>(`/api/pages/${id}/stats${range ? `?${new URLSearchParams(range)}` : ''}`);

/** The CSV download: opened as a plain link (the server streams it as an attachment). */
export const leadsExportUrl = (id: number) => `/api/pages/${id}/export`;

/**
 * The origin landing pages are served from: the server names it in the shell's
 * `<meta name="plink-public-origin">` (PUBLIC_ORIGIN, which may be a host of its own), else this one.
 */
export function publicOrigin(): string {
  const named = document.querySelector<HTMLMetaElement>('meta[name="plink-public-origin"]')?.content;
  return named && /^https?:\/\/[^/\s]+$/.test(named) ? named : window.location.origin;
}

/**
 * Where visitors see the page, served by the server (never a client-side route): `/{slug}` on one host,
 * `{public origin}/{slug}` when landing pages have a host of their own.
 */
export function publicPagePath(slug: string): string {
  const origin = publicOrigin();
  return origin === window.location.origin ? `/${slug}` : `${origin}/${slug}`;
}

/** `{host}/{slug}` as the dashboard shows it, and the full link the copy button puts on the clipboard. */
export const displayPageUrl = (slug: string) => `${new URL(publicOrigin()).host}/${slug}`;
export const absolutePageUrl = (slug: string) => `${publicOrigin()}/${slug}`;
