import type {
  ForgotPasswordRequest,
  ResetPasswordRequest,
  SuccessResponse,
  VerifyResetTokenResponse,
} from '@plink/contracts';
import { apiClient } from '../../../lib/api-client';

export const requestPasswordReset = (request: ForgotPasswordRequest) =>
  apiClient.post<SuccessResponse>('/api/forgot-password', request);

export const verifyResetToken = (token: string) =>
  apiClient.get<VerifyResetTokenResponse>(`/api/verify-reset-token/${encodeURIComponent(token)}`);

export const resetPassword = (request: ResetPasswordRequest) =>
  apiClient.post<SuccessResponse>('/api/reset-password', request);
