import { useMutation } from '@tanstack/react-query';
import { errorText } from '../../../lib/api-client';
import { toast } from '../../../lib/toast';
import { requestPasswordReset } from '../api/password-reset.api';

export function useRequestPasswordReset() {
  return useMutation({
    mutationFn: requestPasswordReset,
    onError: (error) =>
      toast({
        title: 'Error',
        description: errorText(error, 'Something went wrong. Please try again.'),
        variant: 'destructive',
      }),
  });
}
