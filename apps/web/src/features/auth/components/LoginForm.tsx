import { Anchor, Button, Stack } from '@mantine/core';
import { loginSchema } from '@plink/contracts';
import { Link } from 'react-router-dom';
import { useSchemaForm } from '../../../lib/use-schema-form';
import { useLogin } from '../hooks/useLogin';
import { AuthField } from './AuthField';
import { AuthFormHeader } from './AuthFormHeader';

export function LoginForm() {
  const form = useSchemaForm(loginSchema, { email: '', password: '' });
  const login = useLogin();

  return (
    <form noValidate onSubmit={form.onSubmit((credentials) => login.mutate(credentials))}>
      <Stack>
        <AuthFormHeader title="Welcome back" description="Log in to manage your landing pages." />
        <AuthField form={form} name="email" kind="email" label="Email" />
        <AuthField form={form} name="password" kind="current-password" label="Password" />
        <Anchor component={Link} to="/forgot-password" size="sm" ta="right">
          Forgot your password?
        </Anchor>
        <Button type="submit" fullWidth disabled={login.isPending}>
          {login.isPending ? 'Logging in...' : 'Login'}
        </Button>
      </Stack>
    </form>
  );
}
