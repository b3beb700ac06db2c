import { useQuery } from '@tanstack/react-query';
import { fetchLeadsPage } from '../api/leads-list.api';

/** One page of the page's leads (kept on screen while the next one loads). */
export function useLeadsPage(pageId: number, page: number, search: string) {
  return useQuery({
    queryKey: ['pages', 'leads', pageId, page, search],
    queryFn: () => fetchLeadsPage(pageId, page, search),
    placeholderData: (previous) => previous,
    gcTime: 0,
  });
}
