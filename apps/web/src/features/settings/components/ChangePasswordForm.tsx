import { Button, Card, Stack, Text, Title } from '@mantine/core';
import { updatePasswordFormSchema } from '@plink/contracts';
import { useSchemaForm } from '../../../lib/use-schema-form';
import { AuthField } from '../../auth';
import { useUpdatePassword } from '../hooks/useUpdatePassword';

export function ChangePasswordForm() {
  const form = useSchemaForm(updatePasswordFormSchema, {
    currentPassword: '',
    newPassword: '',
    confirmPassword: '',
  });
  const update = useUpdatePassword();

  const submit = form.onSubmit(({ currentPassword, newPassword }) =>
    update.mutate({ currentPassword, newPassword }, { onSuccess: () => form.reset() }),
  );

  return (
    <Card withBorder radius="md" padding="lg">
      <Title order={2} fz="h4" lh="h3">
        Change password
      </Title>
      <Text c="dimmed" size="sm" mb="md">
        Use at least 8 characters for your new password.
      </Text>
      <form noValidate onSubmit={submit}>
        <Stack>
          <AuthField form={form} name="currentPassword" kind="current-password" label="Current Password" />
          <AuthField form={form} name="newPassword" kind="new-password" label="New Password" />
          <AuthField form={form} name="confirmPassword" kind="new-password" label="Confirm New Password" />
          <Button type="submit" disabled={update.isPending} style={{ alignSelf: 'flex-start' }}>
            {update.isPending ? 'Updating...' : 'Update Password'}
          </Button>
        </Stack>
      </form>
    </Card>
  );
}
