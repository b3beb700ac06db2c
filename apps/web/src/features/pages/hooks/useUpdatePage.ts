import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { UpdatePageRequest } from '@plink/contracts';
import { errorText } from '../../../lib/api-client';
import { toast } from '../../../lib/toast';
import { updatePage } from '../api/pages.api';
import { pagesKeys } from '../api/pages.keys';

/** 'Saving changes...', then the caches are refreshed and 'Your page has been updated!'. */
export function useUpdatePage(id: number) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (changes: UpdatePageRequest) => updatePage(id, changes),
    onMutate: () => {
      toast({ title: 'Saving changes...' });
    },
    onSuccess: (page) => {
      queryClient.setQueryData(pagesKeys.detail(id), page);
      void queryClient.invalidateQueries({ queryKey: pagesKeys.lists() });
      void queryClient.invalidateQueries({ queryKey: pagesKeys.stats(id) });
      // A new webhook URL gets a secret and starts afresh.
      void queryClient.invalidateQueries({ queryKey: pagesKeys.webhook(id) });
      toast({ title: 'Your page has been updated!', variant: 'success' });
    },
    onError: (error) =>
      toast({
        title: 'Error',
        description: `Failed to update page: ${errorText(error, 'Unknown error')}`,
        variant: 'destructive',
      }),
  });
}
