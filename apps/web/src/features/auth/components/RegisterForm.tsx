import { Button, Stack } from '@mantine/core';
import { registerFormSchema } from '@plink/contracts';
import { useSchemaForm } from '../../../lib/use-schema-form';
import { useRegister } from '../hooks/useRegister';
import { AuthField } from './AuthField';
import { AuthFormHeader } from './AuthFormHeader';

export function RegisterForm() {
  const form = useSchemaForm(registerFormSchema, {
    username: '',
    email: '',
    password: '',
    confirmPassword: '',
  });
  const register = useRegister();
  // confirmPassword is client-only: the API takes the other three fields.
  const submit = form.onSubmit(({ username, email, password }) =>
    register.mutate({ username, email, password }),
  );

  return (
    <form noValidate onSubmit={submit}>
      <Stack>
        <AuthFormHeader title="Create an account" description="Start collecting emails in minutes." />
        <AuthField form={form} name="username" kind="username" label="Username" />
        <AuthField form={form} name="email" kind="email" label="Email" />
        <AuthField form={form} name="password" kind="new-password" label="Password" />
        <AuthField form={form} name="confirmPassword" kind="new-password" label="Confirm Password" />
        <Button type="submit" fullWidth disabled={register.isPending}>
          {register.isPending ? 'Creating account...' : 'Create Account'}
        </Button>
      </Stack>
    </form>
  );
}
