import type { WebhookDto, WebhookEndpointDto, WebhookTestResult } from '@plink/contracts';
import { apiClient } from '../../../lib/api-client';

/** The page's webhook calls (docs/webhooks.md): Pro owners only. */

export const fetchWebhook = (pageId: number) => apiClient.get<WebhookDto>(`/api/pages/${pageId}/webhook`);

export const sendTestEvent = (pageId: number) => apiClient.post<WebhookTestResult>(`/api/pages/${pageId}/webhook/test`);

export const redeliverMessage = (pageId: number, messageId: string) =>
  apiClient.post<WebhookTestResult>(`/api/pages/${pageId}/webhook/deliveries/${encodeURIComponent(messageId)}/redeliver`);

export const rotateWebhookSecret = (pageId: number) => apiClient.post<WebhookEndpointDto>(`/api/pages/${pageId}/webhook/rotate-secret`);

export const enableWebhook = (pageId: number) => apiClient.post<WebhookEndpointDto>(`/api/pages/${pageId}/webhook/enable`);
