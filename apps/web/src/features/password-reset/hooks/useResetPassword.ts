import { useMutation } from '@tanstack/react-query';
import { errorText } from '../../../lib/api-client';
import { toast } from '../../../lib/toast';
import { resetPassword } from '../api/password-reset.api';

export function useResetPassword() {
  return useMutation({
    mutationFn: resetPassword,
    onError: (error) =>
      toast({
        title: 'Error',
        description: errorText(error, 'Failed to reset password. Please try again.'),
        variant: 'destructive',
      }),
  });
}
