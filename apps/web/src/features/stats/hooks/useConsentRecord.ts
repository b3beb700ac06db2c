import { useQuery } from '@tanstack/react-query';
import { pagesKeys } from '../../pages';
import { fetchConsentRecord } from '../api/consent-record.api';

/** One lead's consent record, fetched when its dialog opens (`leadId` null: none open). It never changes. */
export function useConsentRecord(pageId: number, leadId: number | null) {
  return useQuery({
    queryKey: [...pagesKeys.stats(pageId), 'consent', leadId ?? 0],
    queryFn: () => fetchConsentRecord(pageId, leadId ?? 0),
    enabled: leadId !== null,
    staleTime: Infinity,
  });
}
