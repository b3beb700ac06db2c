import { Badge, Button, Card, Group, Stack, Text, Title } from '@mantine/core';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { HookDeliveryDto } from '@plink/contracts';
import { errorText } from '../../../lib/api-client';
import { toast } from '../../../lib/toast';
import { listHooks, removeHook } from '../api/automation.api';
import { formatWhen } from './ApiTokensCard';

const STATUS_COLOR: Record<HookDeliveryDto['status'], string> = { pending: 'gray', delivered: 'green', failing: 'orange', failed: 'red' };

/** What the last attempt of a delivery answered: the HTTP status, or the error. */
function lastAnswer(delivery: HookDeliveryDto): string {
  const last = delivery.attempts[delivery.attempts.length - 1];
  if (!last) return 'not sent yet';
  return last.status !== null ? `HTTP ${last.status}` : (last.error ?? 'no answer');
}

/**
 * Settings → Automations: the hook subscriptions the user's tools made (`/api/v1/hooks`), each with its target,
 * page and recent deliveries. Tools add and remove them themselves when a Zap or workflow is turned on or off.
 */
export function AutomationsCard() {
  const queryClient = useQueryClient();
  const hooks = useQuery({ queryKey: ['hooks'], queryFn: listHooks });
  // A tool removes its own subscription when turned off; this is for one whose tool is gone.
  const remove = useMutation({
    mutationFn: removeHook,
    onSuccess: () => void queryClient.invalidateQueries({ queryKey: ['hooks'] }),
    onError: (error) => toast({ title: 'Remove failed', description: errorText(error, 'Please try again.'), variant: 'destructive' }),
  });
  return (
    <Card withBorder radius="md" padding="lg">
      <Title order={2} fz="h4" lh="h3">
        Automations
      </Title>
      <Text c="dimmed" size="sm" mb="md">
        The tools subscribed to your new leads (Pro), and what they were sent lately.
      </Text>
      {hooks.data && hooks.data.length === 0 && <Text size="sm">No automation is subscribed yet.</Text>}
      <Stack>
        {hooks.data?.map((hook) => (
          <Stack key={hook.id} gap={4}>
            <Group justify="space-between" wrap="nowrap">
              <Text fw={600} style={{ wordBreak: 'break-all' }}>
                {hook.target_url}
              </Text>
              <Button size="compact-sm" variant="subtle" color="red" loading={remove.isPending && remove.variables === hook.id} onClick={() => remove.mutate(hook.id)}>
                Remove
              </Button>
            </Group>
            <Text size="sm" c="dimmed">
              {hook.event} · {hook.page_id === null ? 'All pages' : `Page #${hook.page_id}`} · since {formatWhen(hook.createdAt)}
            </Text>
            {hook.deliveries.length === 0 && <Text size="sm">No deliveries yet.</Text>}
            {hook.deliveries.map((delivery) => (
              <Group key={delivery.id} gap="xs">
                <Badge color={STATUS_COLOR[delivery.status]} variant="light">
                  {delivery.status}
                </Badge>
                <Text size="sm">
                  Lead #{delivery.leadId} · {formatWhen(delivery.createdAt)} · {lastAnswer(delivery)}
                </Text>
              </Group>
            ))}
          </Stack>
        ))}
      </Stack>
    </Card>
  );
}
