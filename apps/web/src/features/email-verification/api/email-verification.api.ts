import type { LoginRequest, MessageResponse } from '@plink/contracts';
import { apiClient } from '../../../lib/api-client';

/** POST /api/verify-email: true on success, false on any failure. */
export async function verifyEmail(token: string): Promise<boolean> {
  try {
    await apiClient.post<unknown>('/api/verify-email', { token });
    return true;
  } catch {
    return false;
  }
}

export const resendVerification = () => apiClient.post<MessageResponse>('/api/resend-verification');

/** POST /api/login/resend-verification: the login screen's resend, proved by the e-mail and password. */
export const resendVerificationAtLogin = (credentials: LoginRequest) =>
  apiClient.post<MessageResponse>('/api/login/resend-verification', credentials);
