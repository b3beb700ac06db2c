import { useMutation, useQueryClient } from '@tanstack/react-query';
import { IdentityMessages } from '@plink/contracts';
import { errorStatus, errorText } from '../../../lib/api-client';
import { toast, type ToastOptions } from '../../../lib/toast';
import { login } from '../api/auth.api';
import { authKeys } from '../api/auth.keys';

/** Login failures: 403 unverified e-mail, 401 wrong e-mail or password, else the server's message. */
function loginFailure(error: unknown): ToastOptions {
  switch (errorStatus(error)) {
    case 403:
      return {
        title: 'Email verification required',
        description: IdentityMessages.verifyBeforeLogin,
        variant: 'destructive',
      };
    case 401:
      return {
        title: 'Login failed',
        description: 'Invalid email or password. Please try again.',
        variant: 'destructive',
      };
    default:
      return {
        title: 'Login failed',
        description: errorText(error, 'Login failed. Please try again later.'),
        variant: 'destructive',
      };
  }
}

export function useLogin() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: login,
    onSuccess: (user) => {
      queryClient.setQueryData(authKeys.user(), user);
      toast({
        title: 'Login successful',
        description: `Welcome back, ${user.username}!`,
        variant: 'success',
      });
    },
    onError: (error) => toast(loginFailure(error)),
  });
}
