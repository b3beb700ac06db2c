import { queryOptions, useQuery } from '@tanstack/react-query';
import type { UserDto } from '@plink/contracts';
import { fetchCurrentUser } from '../api/auth.api';
import { authKeys } from '../api/auth.keys';

/** The current user is cached 5 minutes, refetched on focus and mount, retried once. */
export const currentUserQuery = queryOptions({
  queryKey: authKeys.user(),
  queryFn: fetchCurrentUser,
  staleTime: 5 * 60 * 1000,
  refetchOnWindowFocus: true,
  refetchOnMount: true,
  retry: 1,
});

export function useCurrentUser() {
  return useQuery(currentUserQuery);
}

/** The user of a screen behind `RequireAuth`, which renders its routes only once there is one. */
export function useSignedInUser(): UserDto {
  const { data: user } = useCurrentUser();
  if (!user) throw new Error('useSignedInUser() is only for routes behind <RequireAuth>');
  return user;
}
