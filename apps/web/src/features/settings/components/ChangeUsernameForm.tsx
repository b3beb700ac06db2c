import { Button, Card, Stack, Text, Title } from '@mantine/core';
import { changeUsernameSchema } from '@plink/contracts';
import { errorText } from '../../../lib/api-client';
import { useSchemaForm } from '../../../lib/use-schema-form';
import { AuthField, useSignedInUser } from '../../auth';
import { FIELD_OF_MESSAGE, useChangeUsername } from '../hooks/useAccountChanges';

/** Settings → Account → Username: the name in the pages' long addresses (`/p/{username}/{slug}`). */
export function ChangeUsernameForm() {
  const user = useSignedInUser();
  const form = useSchemaForm(changeUsernameSchema, { username: user.username });
  const change = useChangeUsername();

  const submit = form.onSubmit((values) =>
    change.mutate(values, {
      onSuccess: (updated) => form.setValues({ username: updated.username }),
      onError: (error) => {
        const message = errorText(error, '');
        if (FIELD_OF_MESSAGE[message] === 'username') form.setFieldError('username', message);
      },
    }),
  );

  return (
    <Card withBorder radius="md" padding="lg">
      <Title order={2} fz="h4" lh="h3">
        Username
      </Title>
      <Text c="dimmed" size="sm" mb="md">
        Your pages&apos; long addresses use it (/p/{user.username}/…). After a change they answer under the new name
        only; the short addresses stay.
      </Text>
      <form noValidate onSubmit={submit}>
        <Stack>
          <AuthField form={form} name="username" kind="username" label="Username" />
          <Button type="submit" disabled={change.isPending} style={{ alignSelf: 'flex-start' }}>
            {change.isPending ? 'Saving...' : 'Change Username'}
          </Button>
        </Stack>
      </form>
    </Card>
  );
}
