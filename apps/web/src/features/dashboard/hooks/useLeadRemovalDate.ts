import { useQuery } from '@tanstack/react-query';
import { fetchSubscription } from '../api/subscription.api';

/**
 * When the leads of the signed-in user's paused pages will be removed (GET /api/subscription's
 * `leadRemovalAt`), or null. Asked only when `enabled` (a Free user with paused pages).
 */
export function useLeadRemovalDate(userId: number, enabled: boolean): Date | null {
  const subscription = useQuery({
    queryKey: ['subscription', userId, 'lead-removal'],
    queryFn: fetchSubscription,
    enabled,
    staleTime: 60 * 1000,
    retry: 1,
  });
  const at = enabled ? subscription.data?.leadRemovalAt : null;
  return at ? new Date(at) : null;
}
