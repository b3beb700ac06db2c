import type { PageTemplateDto } from '@plink/contracts';
import { apiClient } from '../../../lib/api-client';

/** One of Plink's example pages as a new page's starting values (its images stay under /uploads/examples). */
export const fetchTemplate = (slug: string) => apiClient.get<PageTemplateDto>(`/api/templates/${encodeURIComponent(slug)}`);
