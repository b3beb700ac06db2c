import { useQuery } from '@tanstack/react-query';
import { subscriptionQuery } from '../../billing';

/**
 * When the leads of the signed-in user's paused pages will be removed (GET /api/subscription's
 * `leadRemovalAt`, the same query Settings → Subscription reads), or null. Asked only when `enabled`
 * (a Free user with paused pages).
 */
export function useLeadRemovalDate(enabled: boolean): Date | null {
  const subscription = useQuery({ ...subscriptionQuery, enabled, staleTime: 60 * 1000, retry: 1 });
  const at = enabled ? subscription.data?.leadRemovalAt : null;
  return at ? new Date(at) : null;
}
