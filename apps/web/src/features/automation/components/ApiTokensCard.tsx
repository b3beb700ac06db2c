import { Alert, Button, Card, Code, CopyButton, Group, Modal, Stack, Table, Text, TextInput, Title } from '@mantine/core';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { ApiTokenMessages, type ApiTokenDto, type CreatedApiTokenDto } from '@plink/contracts';
import { errorText } from '../../../lib/api-client';
import { TOAST_DURATION, toast } from '../../../lib/toast';
import { createApiToken, listApiTokens, revokeApiToken } from '../api/automation.api';

const TOKENS_KEY = ['api-tokens'];

export const formatWhen = (iso: string | null): string => (iso ? new Date(iso).toLocaleString() : 'Never');

/**
 * Settings → API tokens: tokens for Zapier, Make, n8n or a script (`Authorization: Bearer plk_…` on /api/v1).
 * A new token is shown once, with a Copy button; the list shows name, creation and last use, and Revoke asks first.
 */
export function ApiTokensCard() {
  const queryClient = useQueryClient();
  const tokens = useQuery({ queryKey: TOKENS_KEY, queryFn: listApiTokens });
  const [creating, setCreating] = useState(false);
  const [name, setName] = useState('');
  const [nameError, setNameError] = useState<string | null>(null);
  const [made, setMade] = useState<CreatedApiTokenDto | null>(null);
  const [revoking, setRevoking] = useState<ApiTokenDto | null>(null);

  const create = useMutation({
    mutationFn: createApiToken,
    onSuccess: (token) => {
      setCreating(false);
      setName('');
      setMade(token);
      void queryClient.invalidateQueries({ queryKey: TOKENS_KEY });
    },
    onError: (error) => setNameError(errorText(error, 'The token could not be made.')),
  });
  const revoke = useMutation({
    mutationFn: revokeApiToken,
    onSuccess: () => {
      setRevoking(null);
      toast({ title: 'Token revoked', description: 'Tools using it can no longer reach your account.', variant: 'success' });
      void queryClient.invalidateQueries({ queryKey: TOKENS_KEY });
    },
    onError: (error) => toast({ title: 'Revoke failed', description: errorText(error, 'Please try again.'), variant: 'destructive' }),
  });

  const submit = (event: React.FormEvent) => {
    event.preventDefault();
    if (!name.trim()) return setNameError(ApiTokenMessages.nameRequired);
    setNameError(null);
    create.mutate(name.trim());
  };

  return (
    <Card withBorder radius="md" padding="lg">
      <Group justify="space-between" align="flex-start">
        <div>
          <Title order={2} fz="h4" lh="h3">
            API tokens
          </Title>
          <Text c="dimmed" size="sm" mb="md">
            Connect Zapier, Make, n8n or your own scripts: they use a token with your Plink address.
          </Text>
        </div>
        <Button onClick={() => setCreating(true)}>Create token</Button>
      </Group>
      {tokens.data && tokens.data.length === 0 && <Text size="sm">No tokens yet.</Text>}
      {tokens.data && tokens.data.length > 0 && (
        <Table>
          <Table.Thead>
            <Table.Tr>
              <Table.Th>Name</Table.Th>
              <Table.Th>Created</Table.Th>
              <Table.Th>Last used</Table.Th>
              <Table.Th />
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {tokens.data.map((token) => (
              <Table.Tr key={token.id}>
                <Table.Td>{token.name}</Table.Td>
                <Table.Td>{formatWhen(token.createdAt)}</Table.Td>
                <Table.Td>{formatWhen(token.lastUsedAt)}</Table.Td>
                <Table.Td>
                  <Button size="compact-sm" variant="subtle" color="red" onClick={() => setRevoking(token)}>
                    Revoke
                  </Button>
                </Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      )}

      <Modal opened={creating} onClose={() => setCreating(false)} title="Create an API token" centered>
        <form noValidate onSubmit={submit}>
          <Stack>
            <TextInput
              label="Name"
              description="Where you will use it, e.g. Zapier"
              value={name}
              maxLength={100}
              error={nameError}
              onChange={(event) => setName(event.currentTarget.value)}
              data-autofocus
            />
            <Group justify="flex-end">
              <Button variant="default" onClick={() => setCreating(false)}>
                Cancel
              </Button>
              <Button type="submit" loading={create.isPending}>
                Create
              </Button>
            </Group>
          </Stack>
        </form>
      </Modal>

      <Modal opened={made !== null} onClose={() => setMade(null)} title="Your new API token" centered>
        <Stack>
          <Alert color="yellow">Copy it now: it is shown only this once.</Alert>
          <Code block data-testid="new-token">
            {made?.token}
          </Code>
          <Group justify="flex-end">
            <CopyButton value={made?.token ?? ''} timeout={TOAST_DURATION.copy}>
              {({ copied, copy }) => (
                <Button variant="light" color={copied ? 'teal' : undefined} onClick={copy}>
                  {copied ? 'Copied' : 'Copy'}
                </Button>
              )}
            </CopyButton>
            <Button onClick={() => setMade(null)}>Done</Button>
          </Group>
        </Stack>
      </Modal>

      <Modal opened={revoking !== null} onClose={() => setRevoking(null)} title="Revoke this token?" centered>
        <Text>Tools using “{revoking?.name}” will stop working at once.</Text>
        <Group justify="flex-end" mt="lg">
          <Button variant="default" onClick={() => setRevoking(null)} disabled={revoke.isPending}>
            Keep
          </Button>
          <Button color="red" loading={revoke.isPending} onClick={() => revoking && revoke.mutate(revoking.id)}>
            Revoke token
          </Button>
        </Group>
      </Modal>
    </Card>
  );
}
