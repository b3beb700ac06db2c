import { Alert, Button, Stack, Text } from '@mantine/core';
import { IdentityMessages, RESEND_VERIFICATION_COOLDOWN_SECONDS, type LoginRequest } from '@plink/contracts';
import { errorStatus } from '../../../lib/api-client';
import { useCountdown } from '../hooks/useCountdown';
import { useResendVerificationAtLogin } from '../hooks/useResendVerification';

/**
 * Under the login form after a 403 (an account not verified yet): the way out is right there, a new
 * verification link for the e-mail and password just typed, with the verify prompt's 30 s cooldown.
 */
export function ResendAtLogin({ credentials }: { credentials: LoginRequest }) {
  const resend = useResendVerificationAtLogin();
  const cooldown = useCountdown();
  const startCooldown = () => cooldown.start(RESEND_VERIFICATION_COOLDOWN_SECONDS);
  const onResend = () =>
    resend.mutate(credentials, {
      onSuccess: startCooldown,
      // The server also counts the cooldown: a 429 means "wait", so count down as after a success.
      onError: (error) => errorStatus(error) === 429 && startCooldown(),
    });

  return (
    <Alert variant="light" color="violet" title="Verify your email to log in">
      <Stack gap="xs">
        <Text size="sm">
          {IdentityMessages.verifyBeforeLogin} We sent a link to {credentials.email} when you signed up.
        </Text>
        <Button variant="light" onClick={onResend} disabled={resend.isPending || cooldown.secondsLeft > 0}>
          {cooldown.secondsLeft > 0 ? `Wait ${cooldown.secondsLeft}s to resend` : 'Resend verification email'}
        </Button>
      </Stack>
    </Alert>
  );
}
