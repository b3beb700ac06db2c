import { Alert, Button, Card, Group, Modal, Stack, Text, Title } from '@mantine/core';
import { hashKey, useMutation, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useNavigate } from 'react-router-dom';
import { AccountDataMessages, IdentityMessages, deleteAccountSchema } from '@plink/contracts';
import { errorText } from '../../../lib/api-client';
import { toast } from '../../../lib/toast';
import { useSchemaForm } from '../../../lib/use-schema-form';
import { AuthField, currentUserQuery, useSignedInUser } from '../../auth';
import { deleteAccount } from '../api/account-data.api';

/** Which field a refusal of the server belongs under. */
const FIELD_OF_MESSAGE: Record<string, 'password' | 'username'> = {
  [IdentityMessages.currentPasswordWrong]: 'password',
  [AccountDataMessages.usernameMismatch]: 'username',
};

/**
 * Settings → Account's danger zone: deleting the account, for good and at once. The dialog asks for the password
 * and the username typed again; on success every cached answer goes (the server has ended the session), and the
 * home page greets the former owner with what happened.
 */
export function DeleteAccountCard() {
  const user = useSignedInUser();
  const [open, setOpen] = useState(false);
  const form = useSchemaForm(deleteAccountSchema, { password: '', username: '' });
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  const remove = useMutation({ mutationFn: deleteAccount });

  const close = () => {
    setOpen(false);
    form.reset();
  };

  const submit = form.onSubmit((values) => {
    if (values.username.trim() !== user.username) {
      form.setFieldError('username', AccountDataMessages.usernameMismatch);
      return;
    }
    remove.mutate(values, {
      onSuccess: () => {
        const userHash = hashKey(currentUserQuery.queryKey);
        queryClient.removeQueries({ predicate: (query) => query.queryHash !== userHash });
        queryClient.setQueryData(currentUserQuery.queryKey, null);
        toast({ title: 'Account deleted', description: AccountDataMessages.accountDeleted, variant: 'success' });
        navigate('/');
      },
      onError: (error) => {
        const message = errorText(error, 'The account could not be deleted');
        const field = FIELD_OF_MESSAGE[message];
        if (field) form.setFieldError(field, message);
        else toast({ title: 'Account not deleted', description: message, variant: 'destructive' });
      },
    });
  });

  return (
    <Card withBorder radius="md" padding="lg" style={{ borderColor: 'var(--mantine-color-red-4)' }}>
      <Title order={2} fz="h4" lh="h3" c="red.8">
        Delete account
      </Title>
      <Text c="dimmed" size="sm" mb="md">
        Deletes your account, your pages, their leads and statistics, your uploaded images and webhook logs, and cancels
        any subscription. It happens at once and cannot be undone.
      </Text>
      <Button color="red" variant="outline" style={{ alignSelf: 'flex-start' }} onClick={() => setOpen(true)}>
        Delete account
      </Button>
      <Modal opened={open} onClose={close} title="Delete your account?" centered>
        <form noValidate onSubmit={submit}>
          <Stack>
            <Alert color="red" variant="light">
              Your pages go offline at once and everything of your account is removed. Export your data first if you
              want to keep a copy.
            </Alert>
            <AuthField form={form} name="password" kind="current-password" label="Password" />
            <AuthField form={form} name="username" kind="username" label={`Type your username (${user.username}) to confirm`} />
            <Group justify="flex-end">
              <Button variant="default" onClick={close}>
                Cancel
              </Button>
              <Button type="submit" color="red" disabled={remove.isPending}>
                {remove.isPending ? 'Deleting...' : 'Delete my account'}
              </Button>
            </Group>
          </Stack>
        </form>
      </Modal>
    </Card>
  );
}
