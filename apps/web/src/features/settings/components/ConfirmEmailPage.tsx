import { Button, Center, Loader } from '@mantine/core';
import { IdentityMessages } from '@plink/contracts';
import { useEffect, useRef, useState } from 'react';
import { Link, useSearchParams } from 'react-router-dom';
import { CardPageLayout } from '../../../components/CardPageLayout';
import { StatusIcon } from '../../../components/StatusIcon';
import { errorText } from '../../../lib/api-client';
import { toast } from '../../../lib/toast';
import { useConfirmEmailChange } from '../hooks/useAccountChanges';

type Outcome = { changed: true } | { changed: false; reason: string };

/**
 * `/confirm-email?token=…`, the link e-mailed to the new address of an e-mail change: confirms it once (like
 * /verify-email), then offers the way on (Settings when signed in; the login otherwise, which Settings' guard
 * leads to anyway).
 */
export function ConfirmEmailPage() {
  const token = useSearchParams()[0].get('token');
  const { mutateAsync: confirm } = useConfirmEmailChange();
  const [outcome, setOutcome] = useState<Outcome>();
  const started = useRef(false);

  // Confirm once: StrictMode runs mount effects twice, and a token works once.
  useEffect(() => {
    if (started.current) return;
    started.current = true;
    if (!token) {
      setOutcome({ changed: false, reason: IdentityMessages.invalidEmailChangeToken });
      return;
    }
    confirm(token).then(
      () => {
        toast({ title: 'Email changed', description: IdentityMessages.emailChanged, variant: 'success' });
        setOutcome({ changed: true });
      },
      (error: unknown) => setOutcome({ changed: false, reason: errorText(error, IdentityMessages.invalidEmailChangeToken) }),
    );
  }, [token, confirm]);

  if (!outcome) {
    return (
      <CardPageLayout title="Confirming your new email" description="Please wait a moment...">
        <Center>
          <Loader />
        </Center>
      </CardPageLayout>
    );
  }
  return (
    <CardPageLayout
      icon={<StatusIcon kind={outcome.changed ? 'success' : 'error'} />}
      title={outcome.changed ? 'Email changed' : 'Email not changed'}
      description={outcome.changed ? 'Sign in with your new address from now on.' : `${outcome.reason}. Ask for a new link in Settings → Account.`}
    >
      <Center>
        <Button component={Link} to="/settings?tab=account">
          Go to Settings
        </Button>
      </Center>
    </CardPageLayout>
  );
}
