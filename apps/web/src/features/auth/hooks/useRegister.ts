import { useMutation, useQueryClient } from '@tanstack/react-query';
import { IdentityMessages } from '@plink/contracts';
import { toast } from '../../../lib/toast';
import { register } from '../api/auth.api';
import { authKeys } from '../api/auth.keys';

/** The server's duplicate messages become friendlier texts; anything else stays generic. */
const REGISTRATION_FAILURES: Record<string, string> = {
  [IdentityMessages.emailExists]:
    'This email address is already registered. Please use another email or try to login.',
  [IdentityMessages.usernameExists]: 'This username is already taken. Please choose another one.',
};

export function useRegister() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: register,
    onSuccess: (user) => {
      queryClient.setQueryData(authKeys.user(), user);
      // New accounts usually start unverified: the auth screen then sends them to /verify-prompt.
      if (user.isVerified) {
        toast({
          title: 'Registration successful',
          description: `Welcome, ${user.username}!`,
          variant: 'success',
        });
      }
    },
    onError: (error) =>
      toast({
        title: 'Registration failed',
        description: REGISTRATION_FAILURES[error.message] ?? 'Registration failed. Please try again.',
        variant: 'destructive',
      }),
  });
}
