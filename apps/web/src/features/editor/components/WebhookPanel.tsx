import { ActionIcon, Alert, Badge, Button, Code, CopyButton, Group, Loader, Stack, Table, Text, Tooltip } from '@mantine/core';
import { Fragment, useState } from 'react';
import type { WebhookAttemptDto, WebhookDeliveryDto, WebhookDeliveryStatus } from '@plink/contracts';
import { TOAST_DURATION } from '../../../lib/toast';
import { errorText } from '../../../lib/api-client';
import { useWebhook, useWebhookActions } from '../hooks/useWebhook';

const STATUS_COLOR: Record<WebhookDeliveryStatus, string> = {
  pending: 'gray',
  delivered: 'green',
  failing: 'orange',
  failed: 'red',
};

const time = (iso: string) => new Date(iso).toLocaleString();

/** "HTTP 200 in 35 ms" or "timeout after 10 s (10003 ms)". */
export function attemptSummary(attempt: WebhookAttemptDto): string {
  return attempt.status !== null ? `HTTP ${attempt.status} in ${attempt.durationMs} ms` : `${attempt.error ?? 'No answer'} (${attempt.durationMs} ms)`;
}

function AttemptList({ attempts }: { attempts: WebhookAttemptDto[] }) {
  if (attempts.length === 0) return <Text size="sm" c="dimmed">No attempt yet.</Text>;
  return (
    <Stack gap={6}>
      {attempts.map((attempt, i) => (
        <Stack key={i} gap={2}>
          <Text size="sm">
            {time(attempt.at)} · {attemptSummary(attempt)}
          </Text>
          <Text size="xs" c="dimmed">
            {attempt.url}
          </Text>
          {attempt.response && (
            <Code block style={{ whiteSpace: 'pre-wrap', wordBreak: 'break-all' }}>
              {attempt.response}
            </Code>
          )}
        </Stack>
      ))}
    </Stack>
  );
}

function DeliveriesTable({ deliveries, onRedeliver, redelivering }: { deliveries: WebhookDeliveryDto[]; onRedeliver: (id: string) => void; redelivering: boolean }) {
  const [open, setOpen] = useState<string | null>(null);
  if (deliveries.length === 0) return <Text size="sm" c="dimmed">No deliveries yet. New leads and test events show here.</Text>;
  return (
    <Table.ScrollContainer minWidth={520}>
      <Table verticalSpacing={6} fz="sm" aria-label="Deliveries">
        <Table.Thead>
          <Table.Tr>
            <Table.Th>Created</Table.Th>
            <Table.Th>Event</Table.Th>
            <Table.Th>Status</Table.Th>
            <Table.Th>Attempts</Table.Th>
            <Table.Th />
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {deliveries.map((delivery) => (
            <Fragment key={delivery.id}>
              <Table.Tr data-testid="delivery-row">
                <Table.Td>{time(delivery.createdAt)}</Table.Td>
                <Table.Td>
                  {delivery.eventType}
                  {delivery.test && (
                    <Badge size="xs" variant="light" ml={6}>
                      test
                    </Badge>
                  )}
                </Table.Td>
                <Table.Td>
                  <Badge size="sm" color={STATUS_COLOR[delivery.status]} variant="light">
                    {delivery.status}
                  </Badge>
                  {delivery.nextAttemptAt && delivery.status === 'failing' && (
                    <Text size="xs" c="dimmed">
                      next try {time(delivery.nextAttemptAt)}
                    </Text>
                  )}
                </Table.Td>
                <Table.Td>
                  <Button
                    size="compact-xs"
                    variant="subtle"
                    onClick={() => setOpen(open === delivery.id ? null : delivery.id)}
                    aria-expanded={open === delivery.id}
                  >
                    {delivery.attempts.length} {open === delivery.id ? '▴' : '▾'}
                  </Button>
                </Table.Td>
                <Table.Td>
                  <Button size="compact-xs" variant="light" onClick={() => onRedeliver(delivery.id)} disabled={redelivering}>
                    Redeliver
                  </Button>
                </Table.Td>
              </Table.Tr>
              {open === delivery.id && (
                <Table.Tr>
                  <Table.Td colSpan={5}>
                    <Text size="xs" c="dimmed" mb={4}>
                      webhook-id {delivery.id}
                    </Text>
                    <AttemptList attempts={delivery.attempts} />
                  </Table.Td>
                </Table.Tr>
              )}
            </Fragment>
          ))}
        </Table.Tbody>
      </Table>
    </Table.ScrollContainer>
  );
}

/**
 * A saved page's webhook for its Pro owner: status (Re-enable when Plink turned it off), the signing secret
 * with copy and rotate, 'Send test event' with its result, and the Deliveries panel (attempts, Redeliver).
 */
export function WebhookPanel({ pageId }: { pageId: number | null }) {
  const webhook = useWebhook(pageId, true);
  const actions = useWebhookActions(pageId ?? 0);
  if (pageId === null) {
    return (
      <Text size="sm" c="dimmed">
        Save the page to get its signing secret, send a test event and see its deliveries.
      </Text>
    );
  }
  if (webhook.isPending) return <Loader size="sm" />;
  if (webhook.isError) return <Alert color="red">Could not load the webhook: {errorText(webhook.error, 'Unknown error')}</Alert>;
  const endpoint = webhook.data;
  if (!endpoint.url) {
    return (
      <Text size="sm" c="dimmed">
        Save a webhook URL to get its signing secret, send a test event and see its deliveries.
      </Text>
    );
  }
  const secrets = endpoint.secret?.split(' ') ?? [];
  const testResult = actions.test.data?.delivery;

  return (
    <Stack gap="sm" data-testid="webhook-panel">
      <Group gap="xs">
        <Text size="sm" fw={500}>
          Status
        </Text>
        {endpoint.enabled ? (
          <Badge color="green" variant="light">
            Active
          </Badge>
        ) : (
          <Badge color="red" variant="light">
            Disabled
          </Badge>
        )}
      </Group>
      {!endpoint.enabled && (
        <Alert color="red" title="This webhook is turned off">
          <Stack gap="xs" align="flex-start">
            <Text size="sm">{endpoint.disabledReason ?? 'Deliveries kept failing.'} New leads are kept but not sent.</Text>
            <Button size="compact-sm" onClick={() => actions.enable.mutate()} loading={actions.enable.isPending}>
              Re-enable
            </Button>
          </Stack>
        </Alert>
      )}

      <Stack gap={4}>
        <Text size="sm" fw={500}>
          Signing secret
        </Text>
        <Group gap="xs" wrap="nowrap">
          <Code style={{ overflowX: 'auto', whiteSpace: 'nowrap' }} data-testid="webhook-secret">
            {secrets[0]}
          </Code>
          <CopyButton value={secrets[0] ?? ''} timeout={TOAST_DURATION.copy}>
            {({ copied, copy }) => (
              <Button size="compact-sm" variant="light" color={copied ? 'teal' : undefined} onClick={copy}>
                {copied ? 'Copied' : 'Copy'}
              </Button>
            )}
          </CopyButton>
          <Tooltip label="A new secret; the current one keeps signing for 24 hours" withArrow>
            <Button size="compact-sm" variant="default" onClick={() => actions.rotate.mutate()} loading={actions.rotate.isPending}>
              Rotate
            </Button>
          </Tooltip>
        </Group>
        {secrets.length > 1 && (
          <Text size="xs" c="dimmed">
            The previous secret still signs too, for up to 24 hours after the rotation.
          </Text>
        )}
        <Text size="xs" c="dimmed">
          Verify each request's webhook-signature header with this secret (Standard Webhooks).
        </Text>
      </Stack>

      <Group gap="sm">
        <Button size="compact-sm" onClick={() => actions.test.mutate()} loading={actions.test.isPending}>
          Send test event
        </Button>
        {testResult && (
          <Text size="sm" c={testResult.status === 'delivered' ? 'green' : 'red'} data-testid="webhook-test-result">
            {testResult.status === 'delivered' ? 'Delivered' : 'Failed'}
            {testResult.attempts[0] ? `: ${attemptSummary(testResult.attempts[0])}` : ''}
          </Text>
        )}
      </Group>

      <Group justify="space-between">
        <Text size="sm" fw={500}>
          Deliveries
        </Text>
        <Tooltip label="Refresh" withArrow>
          <ActionIcon variant="subtle" aria-label="Refresh deliveries" onClick={() => void webhook.refetch()} loading={webhook.isFetching}>
            ↻
          </ActionIcon>
        </Tooltip>
      </Group>
      <DeliveriesTable deliveries={endpoint.deliveries} onRedeliver={(id) => actions.redeliver.mutate(id)} redelivering={actions.redeliver.isPending} />
    </Stack>
  );
}
