import { Button } from '@mantine/core';
import { forgotPasswordSchema, IdentityMessages } from '@plink/contracts';
import { Link } from 'react-router-dom';
import { CardPageLayout } from '../../../components/CardPageLayout';
import { StatusIcon } from '../../../components/StatusIcon';
import { useSchemaForm } from '../../../lib/use-schema-form';
import { AuthField } from '../../auth';
import { useRequestPasswordReset } from '../hooks/useRequestPasswordReset';

const BACK_TO_LOGIN = { to: '/auth', label: 'Back to login' };

export function ForgotPasswordPage() {
  const form = useSchemaForm(forgotPasswordSchema, { email: '' });
  const request = useRequestPasswordReset();

  if (request.isSuccess) {
    return (
      <CardPageLayout
        back={BACK_TO_LOGIN}
        icon={<StatusIcon kind="mail" />}
        title="Check Your Email"
        description={IdentityMessages.forgotPasswordSent}
      >
        <Button component={Link} to="/auth" fullWidth>
          Return to Login
        </Button>
      </CardPageLayout>
    );
  }

  return (
    <CardPageLayout
      back={BACK_TO_LOGIN}
      title="Forgot your password?"
      description="Enter your email address and we'll send you a link to reset your password."
    >
      <form noValidate onSubmit={form.onSubmit((values) => request.mutate(values))}>
        <AuthField form={form} name="email" kind="email" label="Email" mb="md" />
        <Button type="submit" fullWidth disabled={request.isPending}>
          {request.isPending ? 'Sending...' : 'Reset Password'}
        </Button>
      </form>
    </CardPageLayout>
  );
}
