import { useMutation, useQueryClient } from '@tanstack/react-query';
import { currentUserQuery } from '../../auth';
import { verifyEmail } from '../api/email-verification.api';

export interface VerificationOutcome {
  verified: boolean;
  /** The signed-in user's address, when someone is signed in in this browser. */
  email?: string;
}

/** Verifies the token, then refreshes the current user (marking it verified if the refetch lags). */
export function useVerifyEmail() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (token: string): Promise<VerificationOutcome> => {
      const verified = await verifyEmail(token);
      if (!verified) return { verified };
      const user = await queryClient.fetchQuery({ ...currentUserQuery, staleTime: 0 }).catch(() => null);
      if (user && !user.isVerified) {
        queryClient.setQueryData(
          currentUserQuery.queryKey,
          (current) => current && { ...current, isVerified: true },
        );
      }
      return { verified, email: user?.email };
    },
  });
}
