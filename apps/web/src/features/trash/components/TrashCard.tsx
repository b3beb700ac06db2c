import { Button, Card, Group, Modal, Stack, Text, Title } from '@mantine/core';
import { useState } from 'react';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { TRASH_DAYS, type TrashedPageDto } from '@plink/contracts';
import { errorText } from '../../../lib/api-client';
import { toast } from '../../../lib/toast';
import { deleteForever, fetchTrash, restoreFromTrash, trashKey } from '../api/trash.api';

/** The words of Settings → Trash. */
export const TrashCardTexts = {
  title: 'Trash',
  explanation: `Deleted pages stay here for ${TRASH_DAYS} days. Then they are removed for good, with their leads, statistics and uploaded images.`,
  empty: 'The Trash is empty.',
  restore: 'Restore',
  deleteForever: 'Delete forever',
  confirmTitle: 'Delete this page forever?',
  confirmText: 'The page, its leads, statistics and uploaded images are removed now. This cannot be undone.',
  restored: 'Page restored',
  deleted: 'Page deleted forever',
} as const;

const day = (iso: string) => new Date(iso).toLocaleDateString(undefined, { year: 'numeric', month: 'short', day: 'numeric' });

/** Settings → Trash: the pages deleted in the last 14 days, each with Restore and "Delete forever". */
export function TrashCard() {
  const queryClient = useQueryClient();
  const trash = useQuery({ queryKey: trashKey, queryFn: fetchTrash });
  const [toDelete, setToDelete] = useState<TrashedPageDto | null>(null);
  const refresh = () => Promise.all([queryClient.invalidateQueries({ queryKey: trashKey }), queryClient.invalidateQueries({ queryKey: ['pages'] })]);
  const failed = (error: unknown) => toast({ title: 'Error', description: errorText(error, 'Unknown error'), variant: 'destructive' });
  const restore = useMutation({
    mutationFn: (page: TrashedPageDto) => restoreFromTrash(page.id),
    onSuccess: async () => {
      toast({ title: TrashCardTexts.restored, variant: 'success' });
      await refresh();
    },
    onError: failed,
  });
  const remove = useMutation({
    mutationFn: (page: TrashedPageDto) => deleteForever(page.id),
    onSuccess: async () => {
      toast({ title: TrashCardTexts.deleted, variant: 'success' });
      setToDelete(null);
      await refresh();
    },
    onError: failed,
  });
  const pages = trash.data ?? [];

  return (
    <Card withBorder radius="md" padding="lg" data-testid="trash">
      <Title order={2} fz="h4" lh="h3">
        {TrashCardTexts.title}
      </Title>
      <Text c="dimmed" size="sm" mb="md">
        {TrashCardTexts.explanation}
      </Text>
      {trash.isError && <Text c="red">{errorText(trash.error, 'Could not load the Trash.')}</Text>}
      {trash.isSuccess && pages.length === 0 && <Text size="sm">{TrashCardTexts.empty}</Text>}
      <Stack gap="sm">
        {pages.map((page) => (
          <Group key={page.id} justify="space-between" wrap="nowrap" aria-label={page.title || page.slug} role="group">
            <div>
              <Text fw={600}>{page.title || page.slug}</Text>
              <Text size="xs" c="dimmed">
                /{page.slug} · deleted {day(page.deletedAt)} · removed for good on {day(page.purgeAt)}
              </Text>
            </div>
            <Group gap="xs" wrap="nowrap">
              <Button size="compact-sm" variant="light" loading={restore.isPending && restore.variables?.id === page.id} onClick={() => restore.mutate(page)}>
                {TrashCardTexts.restore}
              </Button>
              <Button size="compact-sm" variant="subtle" color="red" onClick={() => setToDelete(page)}>
                {TrashCardTexts.deleteForever}
              </Button>
            </Group>
          </Group>
        ))}
      </Stack>
      <Modal opened={toDelete !== null} onClose={() => setToDelete(null)} title={TrashCardTexts.confirmTitle} centered>
        <Text c="dimmed">{TrashCardTexts.confirmText}</Text>
        <Group justify="flex-end" mt="lg">
          <Button variant="default" onClick={() => setToDelete(null)} disabled={remove.isPending}>
            Cancel
          </Button>
          <Button color="red" loading={remove.isPending} onClick={() => toDelete && remove.mutate(toDelete)}>
            {TrashCardTexts.deleteForever}
          </Button>
        </Group>
      </Modal>
    </Card>
  );
}
