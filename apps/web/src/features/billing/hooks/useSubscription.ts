import { queryOptions, useQuery, useQueryClient } from '@tanstack/react-query';
import { useCallback } from 'react';
import { currentUserQuery } from '../../auth';
import { fetchSubscription } from '../api/billing.api';
import { billingKeys } from '../api/billing.keys';

export const subscriptionQuery = queryOptions({ queryKey: billingKeys.subscription(), queryFn: fetchSubscription });

/** The caller's plan (GET /api/subscription). */
export function useSubscription() {
  return useQuery(subscriptionQuery);
}

/** After a plan change: refetch the current user (isPremium gates the editor and the dashboard) and the plan. */
export function useRefreshPlan() {
  const queryClient = useQueryClient();
  return useCallback(
    () =>
      Promise.all([
        queryClient.invalidateQueries({ queryKey: currentUserQuery.queryKey }),
        queryClient.invalidateQueries({ queryKey: billingKeys.all }),
      ]),
    [queryClient],
  );
}
