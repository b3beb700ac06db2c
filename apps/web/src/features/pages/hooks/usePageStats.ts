import { useQuery } from '@tanstack/react-query';
import { fetchPageStats } from '../api/pages.api';
import { pagesKeys } from '../api/pages.keys';

/**
 * Views, conversions and recent leads. Never refetched while the screen is open (like most queries), but
 * dropped from the cache as soon as it closes, so the next visit shows new leads.
 */
export function usePageStats(id: number | null, range?: { from: string; to: string }) {
  return useQuery({
    queryKey: range ? [...pagesKeys.stats(id ?? 0), range.from, range.to] : pagesKeys.stats(id ?? 0),
    queryFn: () => fetchPageStats(id ?? 0, range),
    // The figures of the range before stay on screen while another range loads.
    placeholderData: (previous) => previous,
    enabled: id !== null,
    gcTime: 0,
  });
}
