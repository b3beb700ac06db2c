/** A search result shows about 150-160 characters of the description. */
export const SEO_DESCRIPTION_RANGE = { min: 150, max: 160 } as const;

/** The counter's hint under the meta description. */
export function metaDescriptionHint(description: string): { text: string; tone: 'good' | 'neutral' } {
  const n = description.length;
  if (n === 0) return { text: 'the page text is used when empty', tone: 'neutral' };
  if (n < SEO_DESCRIPTION_RANGE.min) return { text: `${SEO_DESCRIPTION_RANGE.min - n} more for the recommended length`, tone: 'neutral' };
  if (n <= SEO_DESCRIPTION_RANGE.max) return { text: 'a good length', tone: 'good' };
  return { text: `${n - SEO_DESCRIPTION_RANGE.max} over the recommended length; search engines may cut it`, tone: 'neutral' };
}
