import { queryOptions, useQuery } from '@tanstack/react-query';
import { fetchPage } from '../api/pages.api';
import { pagesKeys } from '../api/pages.keys';

export const pageQuery = (id: number) =>
  queryOptions({
    queryKey: pagesKeys.detail(id),
    queryFn: () => fetchPage(id),
  });

/** One of the user's pages (the editor's values, the stats screen's title and slug). */
export function usePage(id: number | null) {
  return useQuery({ ...pageQuery(id ?? 0), enabled: id !== null });
}
