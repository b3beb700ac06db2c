import { useQuery } from '@tanstack/react-query';
import { useCurrentUser } from '../../auth';
import { fetchDailyViews } from '../api/pages.api';
import { pagesKeys } from '../api/pages.keys';

/**
 * The signed-in user's pages' views per day over the last 30 days, for the dashboard's sparklines: asked once the
 * list has pages, fresh for 5 minutes (a day's count moves slowly), and never in the way of the list itself.
 */
export function useDailyViews(enabled: boolean) {
  const { data: user } = useCurrentUser();
  return useQuery({
    queryKey: pagesKeys.dailyViews(user?.id ?? 0),
    queryFn: fetchDailyViews,
    enabled: enabled && !!user,
    staleTime: 5 * 60 * 1000,
    retry: 1,
  });
}
