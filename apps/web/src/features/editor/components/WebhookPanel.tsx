import { ActionIcon, Alert, Badge, Box, Button, Code, CopyButton, Group, Loader, Paper, Stack, Table, Text, Tooltip } from '@mantine/core';
import { useElementSize } from '@mantine/hooks';
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

interface DeliveriesProps {
  deliveries: WebhookDeliveryDto[];
  onRedeliver: (id: string) => void;
  redelivering: boolean;
  /** The delivery whose attempts are shown (kept when the layout changes with the width). */
  open: string | null;
  onToggle: (id: string) => void;
}

/** The table needs this much width; a narrower panel (a phone) lists the deliveries as cards instead. */
const TABLE_MIN_WIDTH = 520;

function TestBadge() {
  return (
    <Badge size="xs" variant="light" ml={6} style={{ flexShrink: 0 }}>
      test
    </Badge>
  );
}

function StatusBadge({ delivery }: { delivery: WebhookDeliveryDto }) {
  return (
    <Badge size="sm" color={STATUS_COLOR[delivery.status]} variant="light" style={{ flexShrink: 0 }}>
      {delivery.status}
    </Badge>
  );
}

function NextTry({ delivery }: { delivery: WebhookDeliveryDto }) {
  if (!delivery.nextAttemptAt || delivery.status !== 'failing') return null;
  return (
    <Text size="xs" c="dimmed">
      next try {time(delivery.nextAttemptAt)}
    </Text>
  );
}

/** "1 ▾": shows or hides the delivery's attempts. */
function AttemptsToggle({ delivery, open, onToggle }: { delivery: WebhookDeliveryDto; open: boolean; onToggle: () => void }) {
  return (
    <Button size="compact-xs" variant="subtle" onClick={onToggle} aria-expanded={open}>
      {delivery.attempts.length} {open ? '▴' : '▾'}
    </Button>
  );
}

function RedeliverButton({ delivery, onRedeliver, redelivering }: { delivery: WebhookDeliveryDto } & Pick<DeliveriesProps, 'onRedeliver' | 'redelivering'>) {
  return (
    <Button size="compact-xs" variant="light" onClick={() => onRedeliver(delivery.id)} disabled={redelivering} style={{ flexShrink: 0 }}>
      Redeliver
    </Button>
  );
}

function OpenAttempts({ delivery }: { delivery: WebhookDeliveryDto }) {
  return (
    <>
      <Text size="xs" c="dimmed" mb={4} style={{ overflowWrap: 'anywhere' }}>
        webhook-id {delivery.id}
      </Text>
      <AttemptList attempts={delivery.attempts} />
    </>
  );
}

/** A narrow panel: one card per delivery, its parts wrapping onto as many lines as they need. */
function DeliveryCards({ deliveries, onRedeliver, redelivering, open, onToggle }: DeliveriesProps) {
  return (
    <Stack component="ul" gap="xs" p={0} m={0} style={{ listStyle: 'none' }} aria-label="Deliveries">
      {deliveries.map((delivery) => (
        <Paper key={delivery.id} component="li" withBorder radius="sm" p="xs" data-testid="delivery-row">
          <Group justify="space-between" gap="xs">
            <Group gap={0}>
              <Text size="sm" fw={500}>
                {delivery.eventType}
              </Text>
              {delivery.test && <TestBadge />}
            </Group>
            <StatusBadge delivery={delivery} />
          </Group>
          <Text size="xs" c="dimmed">
            Created {time(delivery.createdAt)}
          </Text>
          <NextTry delivery={delivery} />
          <Group justify="space-between" gap="xs" mt={4}>
            <Group gap={4}>
              <Text size="xs" c="dimmed">
                Attempts
              </Text>
              <AttemptsToggle delivery={delivery} open={open === delivery.id} onToggle={() => onToggle(delivery.id)} />
            </Group>
            <RedeliverButton delivery={delivery} onRedeliver={onRedeliver} redelivering={redelivering} />
          </Group>
          {open === delivery.id && (
            <Box mt="xs">
              <OpenAttempts delivery={delivery} />
            </Box>
          )}
        </Paper>
      ))}
    </Stack>
  );
}

function DeliveriesTable({ deliveries, onRedeliver, redelivering, open, onToggle }: DeliveriesProps) {
  return (
    <Table.ScrollContainer minWidth={TABLE_MIN_WIDTH}>
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
                  {delivery.test && <TestBadge />}
                </Table.Td>
                <Table.Td>
                  <StatusBadge delivery={delivery} />
                  <NextTry delivery={delivery} />
                </Table.Td>
                <Table.Td>
                  <AttemptsToggle delivery={delivery} open={open === delivery.id} onToggle={() => onToggle(delivery.id)} />
                </Table.Td>
                <Table.Td>
                  <RedeliverButton delivery={delivery} onRedeliver={onRedeliver} redelivering={redelivering} />
                </Table.Td>
              </Table.Tr>
              {open === delivery.id && (
                <Table.Tr>
                  <Table.Td colSpan={5}>
                    <OpenAttempts delivery={delivery} />
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
 * The deliveries as a table where the panel is wide enough, else as cards. The panel's own width decides:
 * the editor puts it in a half-width column on wide screens and a full-width one below them. Until the
 * width is measured (and where it cannot be, as in tests) the table shows.
 */
function Deliveries(props: Omit<DeliveriesProps, 'open' | 'onToggle'>) {
  const { ref, width } = useElementSize();
  const [open, setOpen] = useState<string | null>(null);
  if (props.deliveries.length === 0) return <Text size="sm" c="dimmed">No deliveries yet. New leads and test events show here.</Text>;
  const shown = { ...props, open, onToggle: (id: string) => setOpen(open === id ? null : id) };
  return <div ref={ref}>{width > 0 && width < TABLE_MIN_WIDTH ? <DeliveryCards {...shown} /> : <DeliveriesTable {...shown} />}</div>;
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
        {/* The secret breaks across lines rather than scroll, and the buttons go below it where it leaves them
            no room (a phone). */}
        <Group gap="xs">
          <Code style={{ flex: '1 1 16rem', overflowWrap: 'anywhere' }} data-testid="webhook-secret">
            {secrets[0]}
          </Code>
          <Group gap="xs" wrap="nowrap">
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
      <Deliveries deliveries={endpoint.deliveries} onRedeliver={(id) => actions.redeliver.mutate(id)} redelivering={actions.redeliver.isPending} />
    </Stack>
  );
}
