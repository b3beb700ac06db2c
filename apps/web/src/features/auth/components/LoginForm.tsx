import { Anchor, Button, PasswordInput, Stack, TextInput } from '@mantine/core';
import { loginSchema } from '@plink/contracts';
import { Link } from 'react-router-dom';
import { useSchemaForm } from '../../../lib/use-schema-form';
import { useLogin } from '../hooks/useLogin';
import { AuthFormHeader } from './AuthFormHeader';

export function LoginForm() {
  const form = useSchemaForm(loginSchema, { email: '', password: '' });
  const login = useLogin();

  return (
    <form noValidate onSubmit={form.onSubmit((credentials) => login.mutate(credentials))}>
      <Stack>
        <AuthFormHeader title="Welcome back" description="Log in to manage your landing pages." />
        <TextInput
          label="Email"
          type="email"
          autoComplete="email"
          key={form.key('email')}
          {...form.getInputProps('email')}
        />
        <PasswordInput
          label="Password"
          autoComplete="current-password"
          key={form.key('password')}
          {...form.getInputProps('password')}
        />
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
