import { useMutation } from '@tanstack/react-query';
import { IdentityMessages } from '@plink/contracts';
import { errorText } from '../../../lib/api-client';
import { toast } from '../../../lib/toast';
import { updatePassword } from '../api/settings.api';

export function useUpdatePassword() {
  return useMutation({
    mutationFn: updatePassword,
    onSuccess: () =>
      toast({ title: 'Password updated', description: IdentityMessages.passwordUpdated, variant: 'success' }),
    onError: (error) =>
      toast({
        title: 'Password update failed',
        description: errorText(error, 'Password update failed'),
        variant: 'destructive',
      }),
  });
}
