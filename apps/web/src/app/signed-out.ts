import type { QueryClient } from '@tanstack/react-query';
import { authKeys } from '../features/auth/api/auth.keys';

/**
 * Marks the visitor as signed out in the query cache. The gateway sends prerendered HTML only to
 * visitors without a session cookie, so the hydrating app starts from the same answer the prerender
 * used (no spinner, no request to wait for) and draws the same tree.
 */
export function seedSignedOut(queryClient: QueryClient): void {
  queryClient.setQueryData(authKeys.user(), null);
}
