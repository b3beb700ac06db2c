import { Button, Group, Text } from '@mantine/core';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { TRASH_DAYS } from '@plink/contracts';
import { errorText } from '../../../lib/api-client';
import { PRODUCT_NAME } from '../../../lib/constants';
import { TOAST_DURATION, clearToasts, toast } from '../../../lib/toast';
import { deletePage, restorePage } from '../api/pages.api';
import { pagesKeys } from '../api/pages.keys';
import { trashKey } from '../../trash/api/trash.api';

/** The delete toast's words: the page waits in the Trash, and Undo brings it back. */
export const DeleteToastTexts = {
  title: 'Moved to Trash',
  description: `It stays in Settings → Trash for ${TRASH_DAYS} days.`,
  undo: 'Undo',
  restored: 'Page restored',
} as const;

/** Deletes a page (to the Trash), with a toast whose Undo restores it at once. */
export function useDeletePage() {
  const queryClient = useQueryClient();
  const refresh = () => Promise.all([queryClient.invalidateQueries({ queryKey: pagesKeys.lists() }), queryClient.invalidateQueries({ queryKey: trashKey })]);
  const undo = async (id: number) => {
    clearToasts();
    try {
      await restorePage(id);
      toast({ title: DeleteToastTexts.restored, variant: 'success' });
    } catch (error) {
      toast({ title: 'Error', description: errorText(error, 'Unknown error'), variant: 'destructive' });
    }
    await refresh();
  };
  return useMutation({
    mutationFn: (id: number) => deletePage(id),
    onSuccess: async (_answer, id) => {
      queryClient.removeQueries({ queryKey: pagesKeys.detail(id) });
      queryClient.removeQueries({ queryKey: pagesKeys.stats(id) });
      toast({
        title: DeleteToastTexts.title,
        description: (
          <Group justify="space-between" gap="xs" wrap="nowrap">
            <Text size="sm">{DeleteToastTexts.description}</Text>
            <Button size="compact-sm" variant="light" onClick={() => void undo(id)}>
              {DeleteToastTexts.undo}
            </Button>
          </Group>
        ),
        variant: 'success',
        duration: TOAST_DURATION.undo,
      });
      await refresh();
    },
    onError: (error) =>
      toast({
        title: 'Error',
        description: `Failed to delete ${PRODUCT_NAME}: ${errorText(error, 'Unknown error')}`,
        variant: 'destructive',
      }),
  });
}
