import type { DeleteLeadsResponse, LeadsPageDto } from '@plink/contracts';
import { apiClient } from '../../../lib/api-client';

/** GET /api/pages/{id}/leads: one page of 25 leads with their sources, `search` in the e-mail. */
export const fetchLeadsPage = (pageId: number, page: number, search: string) =>
  apiClient.get<LeadsPageDto>(`/api/pages/${pageId}/leads?${new URLSearchParams({ page: String(page), ...(search ? { search } : {}) })}`);

/** POST /api/pages/{id}/leads/delete: removes these leads (erasure): gone from the list, the export, the counts and undelivered webhooks. */
export const deleteLeads = (pageId: number, ids: number[]) => apiClient.post<DeleteLeadsResponse>(`/api/pages/${pageId}/leads/delete`, { ids });
