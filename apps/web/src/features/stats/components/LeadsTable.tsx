import { useState } from 'react';
import { Card, Group, Pagination, Table, Text, TextInput, Title } from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { errorText } from '../../../lib/api-client';
import { useLeadsPage } from '../hooks/useLeadsPage';

const formatDate = (iso: string) => new Date(iso).toLocaleString(undefined, { dateStyle: 'medium', timeStyle: 'short' });

/** Every lead of the page, 25 a page, found by part of the e-mail, with where each came from. */
export function LeadsTable({ pageId }: { pageId: number }) {
  const [search, setSearch] = useState('');
  const [debounced] = useDebouncedValue(search.trim(), 300);
  const [page, setPage] = useState(1);
  const leads = useLeadsPage(pageId, page, debounced);
  const pages = leads.data ? Math.max(1, Math.ceil(leads.data.total / leads.data.pageSize)) : 1;
  return (
    <Card withBorder radius="md" padding="lg">
      <Group justify="space-between" align="flex-end" mb="sm" gap="xs">
        <Title order={2} fz="h4">
          All leads
        </Title>
        <TextInput
          aria-label="Search leads by email"
          placeholder="Search by email"
          value={search}
          onChange={(e) => {
            setSearch(e.currentTarget.value);
            setPage(1);
          }}
          w={{ base: '100%', xs: 260 }}
        />
      </Group>
      {leads.isError ? (
        <Text c="red" role="alert">
          Failed to load leads: {errorText(leads.error, 'Unknown error')}
        </Text>
      ) : (
        // Wider than a phone: it scrolls sideways, and a keyboard can scroll it too (the region takes focus).
        <Table.ScrollContainer minWidth={640} type="native" tabIndex={0} role="region" aria-label="All leads, scrollable">
          <Table striped aria-label="All leads" fz="sm">
            <Table.Thead>
              <Table.Tr>
                <Table.Th>Email</Table.Th>
                <Table.Th>Date</Table.Th>
                <Table.Th>Source</Table.Th>
                <Table.Th>Referrer</Table.Th>
                <Table.Th>Campaign</Table.Th>
                <Table.Th>Device</Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {leads.data?.leads.length === 0 ? (
                <Table.Tr>
                  <Table.Td colSpan={6}>
                    <Text c="dimmed" ta="center" py="md">
                      {debounced ? 'No lead matches this search.' : 'No leads yet.'}
                    </Text>
                  </Table.Td>
                </Table.Tr>
              ) : (
                leads.data?.leads.map((lead) => (
                  <Table.Tr key={lead.id}>
                    <Table.Td style={{ overflowWrap: 'anywhere' }}>{lead.email}</Table.Td>
                    <Table.Td>{formatDate(lead.createdAt)}</Table.Td>
                    <Table.Td>{lead.sourceLabel ?? 'Direct'}</Table.Td>
                    <Table.Td>{lead.referrer ?? '–'}</Table.Td>
                    <Table.Td>{lead.utmCampaign ?? '–'}</Table.Td>
                    <Table.Td>{lead.device ?? '–'}</Table.Td>
                  </Table.Tr>
                ))
              )}
            </Table.Tbody>
          </Table>
        </Table.ScrollContainer>
      )}
      <Group justify="space-between" mt="sm" gap="xs">
        <Text size="sm" c="dimmed">
          {leads.data ? `${leads.data.total} ${leads.data.total === 1 ? 'lead' : 'leads'}${debounced ? ' found' : ''}.` : ''}
        </Text>
        {pages > 1 && <Pagination total={pages} value={page} onChange={setPage} size="sm" aria-label="Leads pages" />}
      </Group>
    </Card>
  );
}
