import { Alert, Button, Card, Group, Stack, Text, Title } from '@mantine/core';
import { changeEmailSchema } from '@plink/contracts';
import { errorText } from '../../../lib/api-client';
import { useSchemaForm } from '../../../lib/use-schema-form';
import { AuthField, useSignedInUser } from '../../auth';
import { FIELD_OF_MESSAGE, useCancelEmailChange, useChangeEmail } from '../hooks/useAccountChanges';

/**
 * Settings → Account → E-mail: the current address, a change waiting for its confirmation link (with
 * "Cancel"), and the form that asks for one (the current password proves it is the owner).
 */
export function ChangeEmailForm() {
  const user = useSignedInUser();
  const form = useSchemaForm(changeEmailSchema, { newEmail: '', currentPassword: '' });
  const change = useChangeEmail();
  const cancel = useCancelEmailChange();

  const submit = form.onSubmit((values) =>
    change.mutate(values, {
      onSuccess: () => form.reset(),
      onError: (error) => {
        const message = errorText(error, '');
        const field = FIELD_OF_MESSAGE[message];
        if (field === 'newEmail' || field === 'currentPassword') form.setFieldError(field, message);
      },
    }),
  );

  return (
    <Card withBorder radius="md" padding="lg">
      <Title order={2} fz="h4" lh="h3">
        Email
      </Title>
      <Text c="dimmed" size="sm" mb="md">
        You sign in with <strong>{user.email}</strong>.
      </Text>
      {user.pendingEmail && (
        <Alert color="blue" mb="md" title="Waiting for confirmation">
          <Group justify="space-between" wrap="nowrap" align="flex-start">
            <Text size="sm">
              We sent a link to <strong>{user.pendingEmail}</strong>. Your email changes when you open it.
            </Text>
            <Button variant="default" size="xs" onClick={() => cancel.mutate()} disabled={cancel.isPending}>
              Cancel change
            </Button>
          </Group>
        </Alert>
      )}
      <form noValidate onSubmit={submit}>
        <Stack>
          <AuthField form={form} name="newEmail" kind="email" label="New Email" />
          <AuthField form={form} name="currentPassword" kind="current-password" label="Current Password" />
          <Button type="submit" disabled={change.isPending} style={{ alignSelf: 'flex-start' }}>
            {change.isPending ? 'Sending...' : 'Change Email'}
          </Button>
        </Stack>
      </form>
    </Card>
  );
}
