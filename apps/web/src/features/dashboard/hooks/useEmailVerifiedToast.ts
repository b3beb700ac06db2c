import { useEffect } from 'react';
import { useSearchParams } from 'react-router-dom';
import { toast, TOAST_DURATION } from '../../../lib/toast';

/** After /verify-email: thank the user once, then drop emailVerified and email from the URL. */
export function useEmailVerifiedToast() {
  const [searchParams, setSearchParams] = useSearchParams();

  useEffect(() => {
    if (searchParams.get('emailVerified') !== 'true') return;
    const email = searchParams.get('email');
    toast({
      title: 'Thanks for verifying your email',
      description: email
        ? `${email} has been verified successfully.`
        : 'Your email has been verified successfully.',
      variant: 'success',
      duration: TOAST_DURATION.emailVerified,
    });
    const rest = new URLSearchParams(searchParams);
    rest.delete('emailVerified');
    rest.delete('email');
    setSearchParams(rest, { replace: true });
  }, [searchParams, setSearchParams]);
}
