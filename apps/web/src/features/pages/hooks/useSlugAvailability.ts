import { useDebouncedValue } from '@mantine/hooks';
import { slugSchema } from '@plink/contracts';
import { useQuery } from '@tanstack/react-query';
import { fetchSlugAvailability } from '../api/pages.api';
import { pagesKeys } from '../api/pages.keys';

/** How long typing pauses before the address is checked. */
export const SLUG_CHECK_DELAY_MS = 400;

/**
 * Whether the slug being typed is free, asked once typing pauses: only for a well-formed slug (the form
 * already says what is wrong with another) that is not the page's saved one. Undefined while not asked.
 */
export function useSlugAvailability(slug: string, page?: { id: number; savedSlug: string }) {
  const [typed] = useDebouncedValue(slug.trim(), SLUG_CHECK_DELAY_MS);
  const worthAsking = typed !== '' && slugSchema.safeParse(typed).success && typed !== page?.savedSlug;
  const query = useQuery({
    queryKey: pagesKeys.slugAvailability(typed, page?.id),
    queryFn: () => fetchSlugAvailability(typed, page?.id),
    enabled: worthAsking,
    staleTime: 10_000,
    retry: false,
  });
  // An answer about an older slug (typing has gone on since) says nothing about this one.
  return worthAsking && typed === slug.trim() ? query.data : undefined;
}
