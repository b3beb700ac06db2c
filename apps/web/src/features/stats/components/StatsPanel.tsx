import { Card, ScrollArea, SimpleGrid, Stack, Table, Text, Title } from '@mantine/core';
import { BLOCK_REASONS, formatConversionRate, type BlockReason, type PageStatsDto } from '@plink/contracts';

/** The stats screen lists the first 10 of the recent leads. */
export const RECENT_LEADS_SHOWN = 10;

const formatDate = (iso: string) =>
  new Date(iso).toLocaleString(undefined, { dateStyle: 'medium', timeStyle: 'short' });

/** Padding and figure size follow the window's width, so three cards share a phone's row (as on the dashboard). */
function Figure({ label, value }: { label: string; value: string | number }) {
  return (
    <Card withBorder radius="md" style={{ padding: 'clamp(0.625rem, 2.5vw, 1.25rem)' }}>
      <Text size="xs" c="dimmed" fw={700} tt="uppercase" lh={1.3}>
        {label}
      </Text>
      <Text fz="clamp(1.375rem, 3vw + 0.6rem, 2rem)" fw={700} lh={1.2} mt={4} style={{ overflowWrap: 'anywhere' }}>
        {value}
      </Text>
    </Card>
  );
}

/** What each refusal of the bot shield means, in the creator's words. */
export const BLOCK_REASON_LABELS: Record<BlockReason, string> = {
  token: 'No valid form token',
  timing: 'Sent too fast',
  honeypot: 'Hidden field filled',
  disposable: 'Throwaway address',
  noMx: 'Domain gets no mail',
  rateLimit: 'Too many from one address',
};

/** The sign-ups the bot shield refused, per reason (none of them was stored). */
function Blocked({ blocked }: { blocked: PageStatsDto['blocked'] }) {
  const total = BLOCK_REASONS.reduce((sum, reason) => sum + blocked[reason], 0);
  return (
    <Card withBorder radius="md" padding="lg" aria-labelledby="stats-blocked">
      <Title order={2} fz="h4" id="stats-blocked">
        Blocked: {total}
      </Title>
      <Text size="sm" c="dimmed" mt={4}>
        Sign-ups refused as bots or unusable addresses. None of them was stored.
      </Text>
      <SimpleGrid component="dl" cols={{ base: 2, sm: 3 }} spacing="xs" verticalSpacing="xs" mt="sm" m={0}>
        {BLOCK_REASONS.map((reason) => (
          <div key={reason} style={{ minWidth: 0 }}>
            <Text component="dt" size="xs" c="dimmed" style={{ overflowWrap: 'anywhere' }}>
              {BLOCK_REASON_LABELS[reason]}
            </Text>
            <Text component="dd" fw={700} m={0}>
              {blocked[reason]}
            </Text>
          </div>
        ))}
      </SimpleGrid>
    </Card>
  );
}

export function StatsPanel({ stats }: { stats: PageStatsDto }) {
  const shown = stats.leads.slice(0, RECENT_LEADS_SHOWN);
  return (
    <Stack gap="lg">
      {/* One row of three across the whole width at every size: stacked, each card filled the phone's
          width with a lone number and pushed the leads below the fold. */}
      <SimpleGrid cols={3} spacing={{ base: 'xs', sm: 'md' }}>
        <Figure label="Views" value={stats.views} />
        <Figure label="Conversions" value={stats.conversions} />
        <Figure label="Conversion rate" value={formatConversionRate(stats.views, stats.conversions)} />
      </SimpleGrid>
      {stats.blocked && <Blocked blocked={stats.blocked} />}
      <Card withBorder radius="md" padding="lg">
        <Title order={2} fz="h4" mb="sm">
          Recent leads
        </Title>
        <ScrollArea.Autosize mah={360} type="auto">
          <Table striped stickyHeader>
            <Table.Thead>
              <Table.Tr>
                <Table.Th>Email</Table.Th>
                <Table.Th>Date</Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {shown.length === 0 ? (
                <Table.Tr>
                  <Table.Td colSpan={2}>
                    <Text c="dimmed" ta="center" py="md">
                      No leads yet.
                    </Text>
                  </Table.Td>
                </Table.Tr>
              ) : (
                shown.map((lead) => (
                  <Table.Tr key={lead.id}>
                    <Table.Td>{lead.email}</Table.Td>
                    <Table.Td>{formatDate(lead.createdAt)}</Table.Td>
                  </Table.Tr>
                ))
              )}
            </Table.Tbody>
          </Table>
        </ScrollArea.Autosize>
        <Text size="sm" c="dimmed" mt="sm">
          Showing {shown.length} of {stats.conversions} leads.
        </Text>
      </Card>
    </Stack>
  );
}
