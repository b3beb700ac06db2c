import { Anchor, Button, Stack } from '@mantine/core';
import { loginSchema, type LoginRequest } from '@plink/contracts';
import { useState } from 'react';
import { Link } from 'react-router-dom';
import { errorStatus } from '../../../lib/api-client';
import { ResendAtLogin } from '../../email-verification/components/ResendAtLogin';
import { useSchemaForm } from '../../../lib/use-schema-form';
import { useLogin } from '../hooks/useLogin';
import { AuthField } from './AuthField';
import { AuthFormHeader } from './AuthFormHeader';

export function LoginForm() {
  const form = useSchemaForm(loginSchema, { email: '', password: '' });
  const login = useLogin();
  // The credentials of a login that answered 403 (not verified yet): the form then offers a new link.
  const [unverified, setUnverified] = useState<LoginRequest | null>(null);
  const onSubmit = (credentials: LoginRequest) => {
    setUnverified(null);
    login.mutate(credentials, { onError: (error) => errorStatus(error) === 403 && setUnverified(credentials) });
  };

  return (
    <form noValidate onSubmit={form.onSubmit(onSubmit)}>
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
        {unverified && <ResendAtLogin key={unverified.email} credentials={unverified} />}
      </Stack>
    </form>
  );
}
