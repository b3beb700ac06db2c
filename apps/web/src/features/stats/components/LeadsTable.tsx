import { useState } from 'react';
import { ActionIcon, Button, Card, Checkbox, Group, Modal, Pagination, Table, Text, TextInput, Title } from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { errorText } from '../../../lib/api-client';
import { toast } from '../../../lib/toast';
import { deleteLeads } from '../api/leads-list.api';
import { useLeadsPage } from '../hooks/useLeadsPage';

/** The words of lead deletion (erasure) in the list. */
export const DeleteLeadTexts = {
  deleteSelected: (n: number) => `Delete selected (${n})`,
  confirmTitle: (n: number) => (n === 1 ? 'Delete this lead?' : `Delete ${n} leads?`),
  confirmText: 'They are removed now: from this list, the export and the counts, and no webhook is sent for them any more. This cannot be undone.',
  confirm: 'Delete',
} as const;

/** Deleting leads of the page: a confirmation first, then every count and list of the page is read again. */
function useLeadDeletion(pageId: number, onDeleted: () => void) {
  const queryClient = useQueryClient();
  const [asked, setAsked] = useState<number[] | null>(null);
  const mutation = useMutation({
    mutationFn: (ids: number[]) => deleteLeads(pageId, ids),
    onSuccess: async (answer) => {
      setAsked(null);
      onDeleted();
      toast({ title: 'Success', description: answer.message, variant: 'success' });
      // The list, the stats and the dashboard's counts follow.
      await queryClient.invalidateQueries({ queryKey: ['pages'] });
    },
    onError: (error) => toast({ title: 'Error', description: errorText(error, 'Unknown error'), variant: 'destructive' }),
  });
  return { asked, ask: setAsked, mutation };
}

const formatDate = (iso: string) => new Date(iso).toLocaleString(undefined, { dateStyle: 'medium', timeStyle: 'short' });

/** Every lead of the page, 25 a page, found by part of the e-mail, with where each came from. */
export function LeadsTable({ pageId }: { pageId: number }) {
  const [search, setSearch] = useState('');
  const [debounced] = useDebouncedValue(search.trim(), 300);
  const [page, setPage] = useState(1);
  const leads = useLeadsPage(pageId, page, debounced);
  const pages = leads.data ? Math.max(1, Math.ceil(leads.data.total / leads.data.pageSize)) : 1;
  const [selected, setSelected] = useState<Set<number>>(new Set());
  const deletion = useLeadDeletion(pageId, () => setSelected(new Set()));
  const shown = leads.data?.leads ?? [];
  const allSelected = shown.length > 0 && shown.every((lead) => selected.has(lead.id));
  const toggle = (id: number) =>
    setSelected((before) => {
      const next = new Set(before);
      if (!next.delete(id)) next.add(id);
      return next;
    });
  const toggleAll = () => setSelected(allSelected ? new Set() : new Set(shown.map((lead) => lead.id)));
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
      {selected.size > 0 && (
        <Button size="compact-sm" color="red" variant="light" mb="sm" onClick={() => deletion.ask([...selected])}>
          {DeleteLeadTexts.deleteSelected(selected.size)}
        </Button>
      )}
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
                <Table.Th w={72}>
                  <Checkbox aria-label="Select all leads shown" checked={allSelected} onChange={toggleAll} disabled={shown.length === 0} />
                </Table.Th>
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
                  <Table.Td colSpan={7}>
                    <Text c="dimmed" ta="center" py="md">
                      {debounced ? 'No lead matches this search.' : 'No leads yet.'}
                    </Text>
                  </Table.Td>
                </Table.Tr>
              ) : (
                leads.data?.leads.map((lead) => (
                  <Table.Tr key={lead.id}>
                    {/* First, so a phone shows them without scrolling the table sideways. */}
                    <Table.Td>
                      <Group gap={4} wrap="nowrap">
                        <Checkbox aria-label={`Select ${lead.email}`} checked={selected.has(lead.id)} onChange={() => toggle(lead.id)} />
                        <ActionIcon variant="subtle" color="red" size="sm" aria-label={`Delete ${lead.email}`} onClick={() => deletion.ask([lead.id])}>
                          ✕
                        </ActionIcon>
                      </Group>
                    </Table.Td>
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
      <Modal
        opened={deletion.asked !== null}
        onClose={() => deletion.ask(null)}
        title={DeleteLeadTexts.confirmTitle(deletion.asked?.length ?? 0)}
        centered
      >
        <Text c="dimmed">{DeleteLeadTexts.confirmText}</Text>
        <Group justify="flex-end" mt="lg">
          <Button variant="default" onClick={() => deletion.ask(null)} disabled={deletion.mutation.isPending}>
            Cancel
          </Button>
          <Button color="red" loading={deletion.mutation.isPending} onClick={() => deletion.asked && deletion.mutation.mutate(deletion.asked)}>
            {DeleteLeadTexts.confirm}
          </Button>
        </Group>
      </Modal>
    </Card>
  );
}
