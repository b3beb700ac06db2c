import type { PageTemplateDto, PageTemplateEntryDto } from '@plink/contracts';
import { apiClient } from '../../../lib/api-client';

/** The template gallery: every template with its card's name, category, description and the template itself. */
export const fetchTemplates = () => apiClient.get<PageTemplateEntryDto[]>('/api/templates');

/** One template as a new page's starting values (its images stay under /uploads). */
export const fetchTemplate = (slug: string) => apiClient.get<PageTemplateDto>(`/api/templates/${encodeURIComponent(slug)}`);
