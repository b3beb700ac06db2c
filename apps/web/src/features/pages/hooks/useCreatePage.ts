import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { CreatePageRequest } from '@plink/contracts';
import { errorText } from '../../../lib/api-client';
import { clearToasts, toast } from '../../../lib/toast';
import { createPage } from '../api/pages.api';
import { pagesKeys } from '../api/pages.keys';

/** 'Creating page...' while it saves; what a success shows is the caller's (the editor's "Your page is live"). */
export function useCreatePage() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (page: CreatePageRequest) => createPage(page),
    onMutate: () => {
      toast({ title: 'Creating page...' });
    },
    onSuccess: (page) => {
      queryClient.setQueryData(pagesKeys.detail(page.id), page);
      void queryClient.invalidateQueries({ queryKey: pagesKeys.lists() });
      // The editor's "Your page is live" says it: no toast beside it (two announcements at once).
      clearToasts();
    },
    onError: (error) =>
      toast({
        title: 'Error',
        description: `Failed to create page: ${errorText(error, 'Unknown error')}`,
        variant: 'destructive',
      }),
  });
}
