import { Button, PasswordInput, Stack, TextInput } from '@mantine/core';
import { registerFormSchema } from '@plink/contracts';
import { useSchemaForm } from '../../../lib/use-schema-form';
import { useRegister } from '../hooks/useRegister';
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
        <TextInput
          label="Username"
          autoComplete="username"
          key={form.key('username')}
          {...form.getInputProps('username')}
        />
        <TextInput
          label="Email"
          type="email"
          autoComplete="email"
          key={form.key('email')}
          {...form.getInputProps('email')}
        />
        <PasswordInput
          label="Password"
          autoComplete="new-password"
          key={form.key('password')}
          {...form.getInputProps('password')}
        />
        <PasswordInput
          label="Confirm Password"
          autoComplete="new-password"
          key={form.key('confirmPassword')}
          {...form.getInputProps('confirmPassword')}
        />
        <Button type="submit" fullWidth disabled={register.isPending}>
          {register.isPending ? 'Creating account...' : 'Create Account'}
        </Button>
      </Stack>
    </form>
  );
}
