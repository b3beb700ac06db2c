import { useCurrentUser } from '../../auth';
import { usePages } from './usePages';

/**
 * A Free user has one page. The SPA only warns early (the server enforces the rule):
 * `limitReached` once the list shows a page; `isChecking` while the list is still loading.
 * A list that failed to load does not block: the server answers with its own message.
 */
export function usePageLimit() {
  const { data: user } = useCurrentUser();
  const pages = usePages();
  const isFree = !!user && !user.isPremium;
  return {
    isChecking: isFree && pages.isPending && pages.fetchStatus !== 'idle',
    limitReached: isFree && (pages.data?.length ?? 0) >= 1,
  };
}
