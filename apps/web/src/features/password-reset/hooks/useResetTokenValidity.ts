import { useQuery } from '@tanstack/react-query';
import { verifyResetToken } from '../api/password-reset.api';
import { passwordResetKeys } from '../api/password-reset.keys';

export type ResetTokenState = 'checking' | 'valid' | 'invalid';

/** Whether the reset link's token still works; a missing token or a failed check counts as invalid. */
export function useResetTokenValidity(token: string | null): ResetTokenState {
  const { data, isPending } = useQuery({
    queryKey: passwordResetKeys.token(token ?? ''),
    queryFn: () => verifyResetToken(token ?? ''),
    enabled: Boolean(token),
  });
  if (!token) return 'invalid';
  if (isPending) return 'checking';
  return data?.valid ? 'valid' : 'invalid';
}
