import { Text } from '@mantine/core';

/**
 * Leads that came without a view Plink counted (added through the API, or sent by the plain-HTML form on
 * another site): counted as leads, but no conversion rate counts them, which would otherwise pass 100 %.
 */
export function WithoutVisitNote({ counts, testId }: { counts: { api: number; html: number }; testId: string }) {
  const parts = [
    counts.api > 0 && `${counts.api === 1 ? '1 lead' : `${counts.api} leads`} added through the API`,
    counts.html > 0 && `${counts.html === 1 ? '1 lead' : `${counts.html} leads`} from the plain HTML form on other sites`,
  ].filter(Boolean);
  if (parts.length === 0) return null;
  return (
    <Text size="sm" c="dimmed" data-testid={testId}>
      {parts.join(' and ')} (no page view was counted for them, so the conversion rate leaves them out).
    </Text>
  );
}
