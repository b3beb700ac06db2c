import type { MessageResponse, PageDto, TrashedPageDto } from '@plink/contracts';
import { apiClient } from '../../../lib/api-client';

/** The owner's deleted pages (kept 14 days), the latest deleted first. */
export const fetchTrash = () => apiClient.get<TrashedPageDto[]>('/api/trash');

export const restoreFromTrash = (id: number) => apiClient.post<PageDto>(`/api/pages/${id}/restore`);

/** Removes the page now, with its leads, analytics and images. */
export const deleteForever = (id: number) => apiClient.delete<MessageResponse>(`/api/trash/${id}`);

/** The Trash's query key (the dashboard's delete refreshes it too). */
export const trashKey = ['trash'] as const;
