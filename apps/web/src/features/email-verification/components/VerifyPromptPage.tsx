import { Alert, Anchor, Button, Stack, Text } from '@mantine/core';
import { RESEND_VERIFICATION_COOLDOWN_SECONDS } from '@plink/contracts';
import { Link, Navigate } from 'react-router-dom';
import { CardPageLayout } from '../../../components/CardPageLayout';
import { PageLoader } from '../../../components/PageLoader';
import { StatusIcon } from '../../../components/StatusIcon';
import { errorStatus } from '../../../lib/api-client';
import { SUPPORT_EMAIL, SUPPORT_MAILTO } from '../../../lib/constants';
import { useCurrentUser, useLogout } from '../../auth';
import { useCountdown } from '../hooks/useCountdown';
import { useResendVerification } from '../hooks/useResendVerification';

export function VerifyPromptPage() {
  const { data: user, isPending } = useCurrentUser();
  const resend = useResendVerification();
  const logout = useLogout();
  const cooldown = useCountdown();

  if (isPending) return <PageLoader />;
  if (!user) return <Navigate to="/" replace />;
  if (user.isVerified) return <Navigate to="/dashboard" replace />;

  const startCooldown = () => cooldown.start(RESEND_VERIFICATION_COOLDOWN_SECONDS);
  const onResend = () =>
    resend.mutate(undefined, {
      onSuccess: startCooldown,
      // The server also rate-limits resends: a 429 means "wait", so count down as after a success.
      onError: (error) => errorStatus(error) === 429 && startCooldown(),
    });

  return (
    <CardPageLayout
      icon={<StatusIcon kind="mail" />}
      title="Please verify your email"
      description={
        <>
          We sent a verification link to{' '}
          <Text span fw={600} c="var(--mantine-color-text)">
            {user.email}
          </Text>
          . Click the link in that email to activate your account.
        </>
      }
    >
      <Alert variant="light" color="violet">
        Verification is required before you can create a page.
      </Alert>
      <Text size="sm" c="dimmed" ta="center">
        Can't find the email? Check your spam or junk folder.
      </Text>
      <Stack gap="xs">
        <Button onClick={onResend} disabled={resend.isPending || cooldown.secondsLeft > 0}>
          {cooldown.secondsLeft > 0 ? `Wait ${cooldown.secondsLeft}s to resend` : 'Resend verification email'}
        </Button>
        <Button variant="default" onClick={() => logout.mutate()} disabled={logout.isPending}>
          Log out
        </Button>
        <Button variant="subtle" component={Link} to="/">
          Return to homepage
        </Button>
      </Stack>
      <Text size="sm" c="dimmed" ta="center">
        Need help? Contact us at <Anchor href={SUPPORT_MAILTO} underline="always">{SUPPORT_EMAIL}</Anchor>
      </Text>
    </CardPageLayout>
  );
}
