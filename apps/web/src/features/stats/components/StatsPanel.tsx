import { useState } from 'react';
import { ActionIcon, Badge, Card, Group, ScrollArea, SimpleGrid, Stack, Table, Text, Title } from '@mantine/core';
import { BLOCK_REASONS, type BlockReason, type LeadDto, type PageStatsDto } from '@plink/contracts';
import { IconShieldCheck } from '../../../components/icons';
import { ConsentRecordDialog } from './ConsentRecordDialog';
import { WithoutVisitNote } from './WithoutVisitNote';

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

export function StatsPanel({ stats, pageId }: { stats: PageStatsDto; pageId: number }) {
  const shown = stats.leads.slice(0, RECENT_LEADS_SHOWN);
  const [recordOf, setRecordOf] = useState<LeadDto | null>(null);
  return (
    <Stack gap="lg">
      {/* One row of three across the whole width at every size: stacked, each card filled the phone's
          width with a lone number and pushed the leads below the fold. */}
      <SimpleGrid cols={3} spacing={{ base: 'xs', sm: 'md' }}>
        <Figure label="Views" value={stats.views} />
        <Figure label="Conversions" value={stats.conversions} />
        <Figure label="Conversion rate" value={stats.views ? `${stats.conversionRate.toFixed(1)}%` : '0%'} />
      </SimpleGrid>
      <WithoutVisitNote counts={stats.conversionsWithoutVisit} testId="conversions-without-visit" />
      {/* Double opt-in: sign-ups that wait for their e-mail confirmation are not conversions yet. */}
      {stats.pending > 0 && (
        <Text size="sm" c="dimmed" data-testid="pending-leads">
          {stats.pending === 1 ? '1 sign-up is' : `${stats.pending} sign-ups are`} waiting for e-mail confirmation (not counted as conversions yet).
        </Text>
      )}
      {stats.blocked && <Blocked blocked={stats.blocked} />}
      <Card withBorder radius="md" padding="lg">
        <Title order={2} fz="h4" mb="sm">
          Recent leads
        </Title>
        <ScrollArea.Autosize mah={360} type="auto">
          <Table striped stickyHeader aria-label="Recent leads">
            <Table.Thead>
              <Table.Tr>
                <Table.Th>Email</Table.Th>
                <Table.Th>Date</Table.Th>
                <Table.Th>Consent</Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {shown.length === 0 ? (
                <Table.Tr>
                  <Table.Td colSpan={3}>
                    <Text c="dimmed" ta="center" py="md">
                      No leads yet.
                    </Text>
                  </Table.Td>
                </Table.Tr>
              ) : (
                shown.map((lead) => (
                  <Table.Tr key={lead.id}>
                    <Table.Td style={{ overflowWrap: 'anywhere' }}>
                      {lead.status === 'pending' ? (
                        <Group gap="xs">
                          <span>{lead.email}</span>
                          <Badge size="sm" variant="light" color="yellow" title="Waiting for e-mail confirmation">
                            Pending
                          </Badge>
                        </Group>
                      ) : (
                        lead.email
                      )}
                    </Table.Td>
                    <Table.Td>{formatDate(lead.createdAt)}</Table.Td>
                    <Table.Td>
                      <ActionIcon variant="subtle" size="lg" aria-label={`Consent record of ${lead.email}`} title="Consent record" onClick={() => setRecordOf(lead)}>
                        <IconShieldCheck size={18} />
                      </ActionIcon>
                    </Table.Td>
                  </Table.Tr>
                ))
              )}
            </Table.Tbody>
          </Table>
        </ScrollArea.Autosize>
        <Text size="sm" c="dimmed" mt="sm">
          Showing {shown.length} of {stats.conversions + stats.pending} leads.
        </Text>
      </Card>
      <ConsentRecordDialog pageId={pageId} lead={recordOf} onClose={() => setRecordOf(null)} />
    </Stack>
  );
}
