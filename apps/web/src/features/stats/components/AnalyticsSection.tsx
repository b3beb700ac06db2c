import { Suspense, lazy } from 'react';
import { Card, SegmentedControl, SimpleGrid, Skeleton, Stack, Table, Text, Title } from '@mantine/core';
import type { PageAnalyticsDto, StatsSourceRowDto } from '@plink/contracts';
import { STATS_RANGES, type StatsRangeChoice } from './stats-range';
import { WithoutVisitNote } from './WithoutVisitNote';

/**
 * The chart library is most of the stats screen's code: it loads on its own, starting as soon as this screen's code
 * has, so the figures, the tables and the leads are drawn without waiting for it.
 */
// A chart that cannot load (the network, or a new release's files replacing this one's) leaves the rest of the screen.
const chartCode = import('./DailyChart').catch(() => ({ default: ChartUnavailable }));
const DailyChart = lazy(() => chartCode);

function ChartUnavailable() {
  return (
    <Text size="sm" c="dimmed" py="md">
      The chart could not be loaded. Reload the page to try again.
    </Text>
  );
}

const formatDay = (day: string) => new Date(`${day}T00:00:00Z`).toLocaleDateString(undefined, { month: 'short', day: 'numeric', timeZone: 'UTC' });

/** '+12.5% vs previous period', '−40%…', or nothing to compare with. */
function changeText(change: number | null): string {
  if (change === null) return 'No earlier data to compare';
  const sign = change > 0 ? '+' : change < 0 ? '−' : '';
  return `${sign}${Math.abs(change)}% vs previous period`;
}

function Total({ label, value, change }: { label: string; value: string | number; change?: number | null }) {
  return (
    <Card withBorder radius="md" style={{ padding: 'clamp(0.625rem, 2.5vw, 1.25rem)' }}>
      <Text size="xs" c="dimmed" fw={700} tt="uppercase" lh={1.3}>
        {label}
      </Text>
      <Text fz="clamp(1.25rem, 2.5vw + 0.6rem, 1.75rem)" fw={700} lh={1.2} mt={4}>
        {value}
      </Text>
      {change !== undefined && (
        <Text size="xs" c={change === null || change === 0 ? 'dimmed' : change > 0 ? 'teal' : 'red'} mt={2}>
          {changeText(change)}
        </Text>
      )}
    </Card>
  );
}

function Breakdown({ title, label, rows }: { title: string; label: string; rows: StatsSourceRowDto[] }) {
  return (
    <Card withBorder radius="md" padding="md">
      <Title order={3} fz="h5" mb="xs">
        {title}
      </Title>
      {rows.length === 0 ? (
        <Text size="sm" c="dimmed">
          Nothing in this period.
        </Text>
      ) : (
        <Table.ScrollContainer minWidth={280} type="native" tabIndex={0} role="region" aria-label={`${title}, scrollable`}>
          <Table aria-label={title} fz="sm" verticalSpacing={4}>
            <Table.Thead>
              <Table.Tr>
                <Table.Th>{label}</Table.Th>
                <Table.Th ta="right">Views</Table.Th>
                <Table.Th ta="right">Leads</Table.Th>
                <Table.Th ta="right">Conv.</Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {rows.map((r) => (
                <Table.Tr key={r.value}>
                  <Table.Td style={{ overflowWrap: 'anywhere' }}>{r.value}</Table.Td>
                  <Table.Td ta="right">{r.views}</Table.Td>
                  <Table.Td ta="right">{r.leads}</Table.Td>
                  <Table.Td ta="right">{r.views ? `${r.conversionRate.toFixed(1)}%` : '–'}</Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        </Table.ScrollContainer>
      )}
    </Card>
  );
}

/** The range picker, the daily chart, the range's totals with their change, and where visitors and leads came from. */
export function AnalyticsSection({
  analytics,
  choice,
  onChoice,
}: {
  analytics: PageAnalyticsDto;
  choice: StatsRangeChoice;
  onChoice: (choice: StatsRangeChoice) => void;
}) {
  const { totals, breakdowns } = analytics;
  const data = analytics.series.map((d) => ({ day: formatDay(d.day), Views: d.views, 'Unique visitors': d.uniques, Leads: d.leads }));
  return (
    <Stack gap="lg">
      <SegmentedControl
        aria-label="Period"
        data={STATS_RANGES.map((r) => ({ value: r.value, label: r.label }))}
        value={choice}
        onChange={(v) => onChoice(v as StatsRangeChoice)}
        fullWidth
        maw={480}
      />
      <SimpleGrid cols={{ base: 2, sm: 4 }} spacing={{ base: 'xs', sm: 'md' }}>
        <Total label="Period views" value={totals.views} change={totals.change.views} />
        <Total label="Unique visitors" value={totals.uniques} change={totals.change.uniques} />
        <Total label="Period leads" value={totals.leads} change={totals.change.leads} />
        <Total label="Visitor conversion" value={totals.uniques ? `${totals.visitorConversionRate.toFixed(1)}%` : '0%'} />
      </SimpleGrid>
      <WithoutVisitNote counts={totals.leadsWithoutVisit} testId="period-leads-without-visit" />
      <Card withBorder radius="md" padding="md">
        <Title order={2} fz="h4" mb="xs">
          Views, visitors and leads per day
        </Title>
        <div role="img" aria-label={`Chart of views, unique visitors and leads per day, ${analytics.range.from} to ${analytics.range.to}`}>
          <Suspense fallback={<Skeleton h={240} />}>
            <DailyChart data={data} />
          </Suspense>
        </div>
        <Text size="xs" c="dimmed" mt="xs">
          Days are UTC days (midnight to midnight, Coordinated Universal Time). Unique visitors are counted per day without cookies.
        </Text>
      </Card>
      <SimpleGrid cols={{ base: 1, md: 2 }} spacing="md">
        <Breakdown title="Top referrers" label="Referrer" rows={breakdowns.referrers} />
        <Breakdown title="UTM campaigns" label="Campaign" rows={breakdowns.utmCampaigns} />
        <Breakdown title="UTM sources" label="Source" rows={breakdowns.utmSources} />
        <Breakdown title="Devices" label="Device" rows={breakdowns.devices} />
      </SimpleGrid>
    </Stack>
  );
}
