import type { AccountExportStarted, DeleteAccountRequest, LatestAccountExport, MessageResponse } from '@plink/contracts';
import { apiClient, apiRequest } from '../../../lib/api-client';

/** Deletes the signed-in account for good (the server ends every session and clears the cookie). */
export const deleteAccount = (request: DeleteAccountRequest) => apiRequest<MessageResponse>('DELETE', '/api/account', request);

/** Starts an export of the account's data (202 `{ id }`; built by jobs, e-mailed when ready). */
export const startExport = () => apiClient.post<AccountExportStarted>('/api/account/export');

/** The newest export still kept (24 hours), if any. */
export const latestExport = () => apiClient.get<LatestAccountExport>('/api/account/export');

/** Where the signed-in owner downloads a ready export. */
export const exportDownloadUrl = (id: string) => `/api/account/export/${encodeURIComponent(id)}`;
