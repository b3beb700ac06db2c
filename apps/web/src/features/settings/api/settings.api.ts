import type { MessageResponse, UpdatePasswordRequest } from '@plink/contracts';
import { apiClient } from '../../../lib/api-client';

export const updatePassword = (request: UpdatePasswordRequest) =>
  apiClient.post<MessageResponse>('/api/update-password', request);
