import { Button, Center, Loader, Stack } from '@mantine/core';
import { IdentityMessages, resetPasswordFormSchema } from '@plink/contracts';
import { Link, useSearchParams } from 'react-router-dom';
import { CardPageLayout } from '../../../components/CardPageLayout';
import { StatusIcon } from '../../../components/StatusIcon';
import { useSchemaForm } from '../../../lib/use-schema-form';
import { AuthField } from '../../auth';
import { useResetPassword } from '../hooks/useResetPassword';
import { useResetTokenValidity } from '../hooks/useResetTokenValidity';

export function ResetPasswordPage() {
  const token = useSearchParams()[0].get('token');
  const tokenState = useResetTokenValidity(token);
  const reset = useResetPassword();

  if (tokenState === 'checking') {
    return (
      <CardPageLayout title="Verifying your reset link...">
        <Center>
          <Loader />
        </Center>
      </CardPageLayout>
    );
  }
  if (tokenState === 'invalid' || !token) {
    return (
      <CardPageLayout
        icon={<StatusIcon kind="error" />}
        title="Invalid or Expired Link"
        description="This password reset link is invalid or has expired. Please request a new one."
      >
        <Button component={Link} to="/forgot-password" fullWidth>
          Request New Link
        </Button>
      </CardPageLayout>
    );
  }
  if (reset.isSuccess) {
    return (
      <CardPageLayout
        icon={<StatusIcon kind="success" />}
        title="Password Reset Complete"
        description={IdentityMessages.passwordResetDone}
      >
        <Button component={Link} to="/auth" fullWidth>
          Go to Login
        </Button>
      </CardPageLayout>
    );
  }
  return (
    <CardPageLayout title="Reset your password" description="Choose a new password for your account.">
      <NewPasswordForm pending={reset.isPending} onSubmit={(password) => reset.mutate({ token, password })} />
    </CardPageLayout>
  );
}

function NewPasswordForm({ pending, onSubmit }: { pending: boolean; onSubmit: (password: string) => void }) {
  const form = useSchemaForm(resetPasswordFormSchema, { password: '', confirmPassword: '' });
  return (
    <form noValidate onSubmit={form.onSubmit(({ password }) => onSubmit(password))}>
      <Stack>
        <AuthField form={form} name="password" kind="new-password" label="New Password" />
        <AuthField form={form} name="confirmPassword" kind="new-password" label="Confirm New Password" />
        <Button type="submit" fullWidth disabled={pending}>
          {pending ? 'Resetting...' : 'Reset Password'}
        </Button>
      </Stack>
    </form>
  );
}
