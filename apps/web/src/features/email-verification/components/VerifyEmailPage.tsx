import { Center, Loader } from '@mantine/core';
import { IdentityMessages } from '@plink/contracts';
import { useEffect, useRef, useState } from 'react';
import { useNavigate, useSearchParams } from 'react-router-dom';
import { CardPageLayout } from '../../../components/CardPageLayout';
import { StatusIcon } from '../../../components/StatusIcon';
import { toast, type ToastOptions } from '../../../lib/toast';
import { useVerifyEmail, type VerificationOutcome } from '../hooks/useVerifyEmail';

/** The dashboard follows 1.5 s after the outcome, whatever it is. */
export const REDIRECT_AFTER_VERIFICATION_MS = 1500;

const VERIFIED: ToastOptions = {
  title: 'Verification complete',
  description: 'Your email has been verified.',
  variant: 'success',
};
const ISSUE: ToastOptions = {
  title: 'Verification issue',
  description: 'There was a problem verifying your email, but you can continue using the app.',
  variant: 'warning',
};

function dashboardUrl({ verified, email }: VerificationOutcome): string {
  if (!verified) return '/dashboard';
  const params = new URLSearchParams({ emailVerified: 'true' });
  if (email) params.set('email', email);
  return `/dashboard?${params}`;
}

export function VerifyEmailPage() {
  const token = useSearchParams()[0].get('token');
  const navigate = useNavigate();
  const { mutateAsync: verify } = useVerifyEmail();
  const [outcome, setOutcome] = useState<VerificationOutcome>();
  const started = useRef(false);

  // Verify once: StrictMode runs mount effects twice, and a token only verifies once.
  useEffect(() => {
    if (started.current) return;
    started.current = true;
    toast({ title: 'Verifying your email', description: 'Please wait a moment...', variant: 'info' });
    if (!token) {
      toast({
        title: `Verification failed: ${IdentityMessages.missingVerificationToken}`,
        variant: 'destructive',
      });
      setOutcome({ verified: false });
      return;
    }
    verify(token).then((result) => {
      toast(result.verified ? VERIFIED : ISSUE);
      setOutcome(result);
    });
  }, [token, verify]);

  // Separate from the effect above, so that StrictMode's remount cannot cancel the redirect.
  useEffect(() => {
    if (!outcome) return;
    const redirect = setTimeout(
      () => navigate(dashboardUrl(outcome), { replace: true }),
      REDIRECT_AFTER_VERIFICATION_MS,
    );
    return () => clearTimeout(redirect);
  }, [outcome, navigate]);

  if (!outcome) {
    return (
      <CardPageLayout title="Verifying your email" description="Please wait a moment...">
        <Center>
          <Loader />
        </Center>
      </CardPageLayout>
    );
  }
  const { title, description } = outcome.verified ? VERIFIED : ISSUE;
  return (
    <CardPageLayout
      icon={<StatusIcon kind={outcome.verified ? 'success' : 'error'} />}
      title={title}
      description={outcome.verified ? 'Taking you to your dashboard...' : description}
    />
  );
}
