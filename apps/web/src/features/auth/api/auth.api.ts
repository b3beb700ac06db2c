import type { LoginRequest, RegisterRequest, UserDto } from '@plink/contracts';
import { apiClient, errorStatus } from '../../../lib/api-client';

/** GET /api/user: the signed-in user, or null when signed out (401). */
export async function fetchCurrentUser(): Promise<UserDto | null> {
  try {
    return await apiClient.get<UserDto>('/api/user');
  } catch (error) {
    if (errorStatus(error) === 401) return null;
    throw error;
  }
}

export const login = (credentials: LoginRequest) => apiClient.post<UserDto>('/api/login', credentials);

export const register = (account: RegisterRequest) => apiClient.post<UserDto>('/api/register', account);

export const logout = () => apiClient.post<unknown>('/api/logout');
