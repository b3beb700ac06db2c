import type { LeadsPageDto } from '@plink/contracts';
import { apiClient } from '../../../lib/api-client';

/** GET /api/pages/{id}/leads: one page of 25 leads with their sources, `search` in the e-mail. */
export const fetchLeadsPage = (pageId: number, page: number, search: string) =>
  apiClient.get<LeadsPageDto>(`/api/pages/${pageId}/leads?${new URLSearchParams({ page: String(page), ...(search ? { search } : {}) })}`);
