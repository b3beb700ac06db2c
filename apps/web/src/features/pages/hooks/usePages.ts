import { queryOptions, useQuery } from '@tanstack/react-query';
import { useCurrentUser } from '../../auth';
import { fetchPages } from '../api/pages.api';
import { pagesKeys } from '../api/pages.keys';

/** The page list is fresh for 60 s, refetched on mount and per user, retried once. */
export const pagesListQuery = (userId: number) =>
  queryOptions({
    queryKey: pagesKeys.list(userId),
    queryFn: fetchPages,
    staleTime: 60 * 1000,
    refetchOnMount: true,
    retry: 1,
  });

/** The signed-in user's pages; not fetched while nobody is signed in. */
export function usePages() {
  const { data: user } = useCurrentUser();
  return useQuery({ ...pagesListQuery(user?.id ?? 0), enabled: !!user });
}
