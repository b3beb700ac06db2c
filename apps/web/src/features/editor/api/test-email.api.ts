import type { MessageResponse, TestDeliveryEmailRequest } from '@plink/contracts';
import { apiClient } from '../../../lib/api-client';

/** "Send me a test": the delivery e-mail with the editor's current values, to the signed-in creator only. */
export const sendTestEmail = (pageId: number, body: TestDeliveryEmailRequest) =>
  apiClient.post<MessageResponse>(`/api/pages/${pageId}/test-email`, body);
