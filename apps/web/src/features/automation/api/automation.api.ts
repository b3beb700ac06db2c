import type { ApiTokenDto, CreatedApiTokenDto, HookWithDeliveriesDto } from '@plink/contracts';
import { apiClient } from '../../../lib/api-client';

export const listApiTokens = () => apiClient.get<ApiTokenDto[]>('/api/tokens');
export const createApiToken = (name: string) => apiClient.post<CreatedApiTokenDto>('/api/tokens', { name });
export const revokeApiToken = (id: number) => apiClient.delete<void>(`/api/tokens/${id}`);

export const listHooks = () => apiClient.get<HookWithDeliveriesDto[]>('/api/hooks');
export const removeHook = (id: number) => apiClient.delete<void>(`/api/hooks/${id}`);
