import { useMutation } from '@tanstack/react-query';
import { IdentityMessages } from '@plink/contracts';
import { errorText } from '../../../lib/api-client';
import { toast } from '../../../lib/toast';
import { resendVerification, resendVerificationAtLogin } from '../api/email-verification.api';

const resendToasts = {
  onSuccess: () =>
    toast({
      title: IdentityMessages.verificationSent,
      description: 'Please check your inbox for the new verification link.',
      variant: 'success',
    }),
  onError: (error: unknown) =>
    toast({
      title: 'Failed to resend verification email',
      description: errorText(error, 'Failed to resend verification email'),
      variant: 'destructive',
    }),
};

/** The verify prompt's resend (signed in). */
export function useResendVerification() {
  return useMutation({ mutationFn: resendVerification, ...resendToasts });
}

/** The login screen's resend, for a signed-out creator whose login answered 403. */
export function useResendVerificationAtLogin() {
  return useMutation({ mutationFn: resendVerificationAtLogin, ...resendToasts });
}
