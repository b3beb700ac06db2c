import type { ConsentRecordDto } from '@plink/contracts';
import { apiClient } from '../../../lib/api-client';

/** GET /api/pages/{id}/leads/{leadId}/consent: how one lead was given (owner only). */
export const consentRecordUrl = (pageId: number, leadId: number) => `/api/pages/${pageId}/leads/${leadId}/consent`;

export const fetchConsentRecord = (pageId: number, leadId: number) => apiClient.get<ConsentRecordDto>(consentRecordUrl(pageId, leadId));
