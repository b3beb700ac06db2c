import { QueryClient } from '@tanstack/react-query';

/**
 * Queries are never stale, never refetched on their own and never retried, unless a query
 * says otherwise (the current user: see currentUserQuery).
 */
export function createQueryClient() {
  return new QueryClient({
    defaultOptions: {
      queries: {
        staleTime: Infinity,
        refetchOnMount: false,
        refetchOnWindowFocus: false,
        refetchOnReconnect: false,
        retry: false,
      },
      mutations: { retry: false },
    },
  });
}
