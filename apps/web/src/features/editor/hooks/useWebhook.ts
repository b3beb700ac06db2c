import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { WebhookDto, WebhookEndpointDto } from '@plink/contracts';
import { errorText } from '../../../lib/api-client';
import { toast } from '../../../lib/toast';
import { pagesKeys } from '../../pages';
import { enableWebhook, fetchWebhook, redeliverMessage, rotateWebhookSecret, sendTestEvent } from '../api/webhooks.api';

/** While a message waits for its next attempt, the log is looked at again every few seconds. */
const BUSY_REFRESH_MS = 3_000;

/** The page's webhook endpoint and delivery log (Pro owners, saved pages only). */
export function useWebhook(pageId: number | null, enabled: boolean) {
  return useQuery({
    queryKey: pagesKeys.webhook(pageId ?? 0),
    queryFn: () => fetchWebhook(pageId ?? 0),
    enabled: enabled && pageId !== null,
    refetchInterval: (query) =>
      query.state.data?.deliveries.some((d) => d.status === 'pending' || d.status === 'failing') ? BUSY_REFRESH_MS : false,
  });
}

/** The webhook's actions: each refreshes the endpoint and its log; a failure says why in a toast. */
export function useWebhookActions(pageId: number) {
  const queryClient = useQueryClient();
  const key = pagesKeys.webhook(pageId);
  const refresh = () => queryClient.invalidateQueries({ queryKey: key });
  const keepEndpoint = (endpoint: WebhookEndpointDto) =>
    queryClient.setQueryData<WebhookDto>(key, (old) => (old ? { ...old, ...endpoint } : old));
  const failed = (title: string) => (error: unknown) => toast({ title, description: errorText(error, 'Unknown error'), variant: 'destructive' });

  return {
    test: useMutation({ mutationFn: () => sendTestEvent(pageId), onSettled: refresh, onError: failed('Test event not sent') }),
    redeliver: useMutation({
      mutationFn: (messageId: string) => redeliverMessage(pageId, messageId),
      onSuccess: () => toast({ title: 'Redelivery queued', variant: 'success' }),
      onSettled: refresh,
      onError: failed('Redelivery failed'),
    }),
    rotate: useMutation({
      mutationFn: () => rotateWebhookSecret(pageId),
      onSuccess: (endpoint) => {
        keepEndpoint(endpoint);
        toast({ title: 'Secret rotated', description: 'The previous secret keeps signing beside the new one for 24 hours.', variant: 'success' });
      },
      onError: failed('Secret not rotated'),
    }),
    enable: useMutation({
      mutationFn: () => enableWebhook(pageId),
      onSuccess: (endpoint) => {
        keepEndpoint(endpoint);
        toast({ title: 'Webhook re-enabled', variant: 'success' });
      },
      onError: failed('Webhook not re-enabled'),
    }),
  };
}
