/** The ranges the stats screen offers (days), or all of the page's life. */
export const STATS_RANGES = [
  { value: '7', label: '7 days' },
  { value: '30', label: '30 days' },
  { value: '90', label: '90 days' },
  { value: 'all', label: 'All time' },
] as const;
export type StatsRangeChoice = (typeof STATS_RANGES)[number]['value'];

const DAY_MS = 86_400_000;
const dayOf = (ms: number) => new Date(ms).toISOString().slice(0, 10);

/** The UTC days of a choice, ending today; "all time" starts on the page's creation day (at most ten years). */
export function rangeOf(choice: StatsRangeChoice, pageCreatedAt: string, now = Date.now()): { from: string; to: string } {
  const to = dayOf(now);
  if (choice === 'all') {
    const created = Date.parse(pageCreatedAt);
    const from = Number.isNaN(created) ? now - 29 * DAY_MS : Math.max(created, now - 3_659 * DAY_MS);
    return { from: dayOf(Math.min(from, now)), to };
  }
  return { from: dayOf(now - (Number(choice) - 1) * DAY_MS), to };
}
