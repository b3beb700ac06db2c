import type { PageProtectionDto } from '@plink/contracts';
import { apiClient } from '../../../lib/api-client';

/** The page's "under attack" switch (docs/security.md): its owner reads and ends it. */

export const fetchProtection = (pageId: number) => apiClient.get<PageProtectionDto>(`/api/pages/${pageId}/protection`);

export const endProtection = (pageId: number) => apiClient.delete<PageProtectionDto>(`/api/pages/${pageId}/protection`);
