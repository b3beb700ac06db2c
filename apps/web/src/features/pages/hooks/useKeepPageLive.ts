import { useMutation, useQueryClient } from '@tanstack/react-query';
import { errorText } from '../../../lib/api-client';
import { toast } from '../../../lib/toast';
import { keepPageLive } from '../api/pages.api';
import { pagesKeys } from '../api/pages.keys';

/** 'Keep this page live' (a Free owner with paused pages): the list is refreshed with the server's answer. */
export function useKeepPageLive() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: number) => keepPageLive(id),
    onSuccess: async (answer) => {
      toast({ title: 'Page is live', description: answer.message, variant: 'success' });
      for (const page of answer.pages) queryClient.removeQueries({ queryKey: pagesKeys.detail(page.id) });
      await queryClient.invalidateQueries({ queryKey: pagesKeys.lists() });
    },
    onError: (error) =>
      toast({
        title: 'Error',
        description: `Could not keep this page live: ${errorText(error, 'Unknown error')}`,
        variant: 'destructive',
      }),
  });
}
