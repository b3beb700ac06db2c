import type { DeleteAccountRequest, MessageResponse } from '@plink/contracts';
import { apiRequest } from '../../../lib/api-client';

/** Deletes the signed-in account for good (the server ends every session and clears the cookie). */
export const deleteAccount = (request: DeleteAccountRequest) => apiRequest<MessageResponse>('DELETE', '/api/account', request);
