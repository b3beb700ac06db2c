import type { ChangeEmailRequest, ChangeUsernameRequest, MessageResponse, UpdatePasswordRequest, UserDto } from '@plink/contracts';
import { apiClient } from '../../../lib/api-client';

export const updatePassword = (request: UpdatePasswordRequest) =>
  apiClient.post<MessageResponse>('/api/update-password', request);

/** Asks for an e-mail change: the answer's `pendingEmail` waits for the link sent to the new address. */
export const changeEmail = (request: ChangeEmailRequest) => apiClient.post<UserDto>('/api/account/email', request);

export const cancelEmailChange = () => apiClient.post<UserDto>('/api/account/email/cancel');

/** The link's token (`/confirm-email?token=…`): the change applies. */
export const confirmEmailChange = (token: string) => apiClient.post<MessageResponse>('/api/account/email/confirm', { token });

export const changeUsername = (request: ChangeUsernameRequest) => apiClient.post<UserDto>('/api/account/username', request);
