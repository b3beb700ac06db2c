import { useQuery } from '@tanstack/react-query';
import { isExampleSlug } from '@plink/contracts';
import { fetchTemplate } from '../api/templates.api';

/** The template of `slug` (null: none asked); templates do not change while the app runs. */
export function usePageTemplate(slug: string | null) {
  const wanted = slug !== null && isExampleSlug(slug) ? slug.toLowerCase() : null;
  return useQuery({
    queryKey: ['templates', wanted],
    queryFn: () => fetchTemplate(wanted as string),
    enabled: wanted !== null,
    staleTime: Infinity,
  });
}
