import { useMutation } from '@tanstack/react-query';
import { IdentityMessages } from '@plink/contracts';
import { errorText } from '../../../lib/api-client';
import { toast } from '../../../lib/toast';
import { resendVerification } from '../api/email-verification.api';

export function useResendVerification() {
  return useMutation({
    mutationFn: resendVerification,
    onSuccess: () =>
      toast({
        title: IdentityMessages.verificationSent,
        description: 'Please check your inbox for the new verification link.',
        variant: 'success',
      }),
    onError: (error) =>
      toast({
        title: 'Failed to resend verification email',
        description: errorText(error, 'Failed to resend verification email'),
        variant: 'destructive',
      }),
  });
}
