import { useQuery, useQueryClient } from '@tanstack/react-query';
import { isTemplateSlug } from '@plink/contracts';
import { fetchTemplate, fetchTemplates } from '../api/templates.api';

const templateKey = (slug: string | null) => ['templates', 'one', slug] as const;

/** The template of `slug` (null: none asked, or "Start blank"); templates do not change while the app runs. */
export function usePageTemplate(slug: string | null) {
  const wanted = slug !== null && isTemplateSlug(slug) ? slug.toLowerCase() : null;
  return useQuery({
    queryKey: templateKey(wanted),
    queryFn: () => fetchTemplate(wanted as string),
    enabled: wanted !== null,
    staleTime: Infinity,
  });
}

/**
 * The gallery's templates. Each one's content comes with the list, so the editor opened from a card starts
 * at once, without asking for it again.
 */
export function usePageTemplates() {
  const queryClient = useQueryClient();
  return useQuery({
    queryKey: ['templates', 'all'],
    queryFn: async () => {
      const templates = await fetchTemplates();
      for (const entry of templates) queryClient.setQueryData(templateKey(entry.slug), entry.page);
      return templates;
    },
    staleTime: Infinity,
  });
}
