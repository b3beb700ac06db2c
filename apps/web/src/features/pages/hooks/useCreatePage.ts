import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { CreatePageRequest } from '@plink/contracts';
import { useNavigate } from 'react-router-dom';
import { errorText } from '../../../lib/api-client';
import { toast } from '../../../lib/toast';
import { createPage } from '../api/pages.api';
import { pagesKeys } from '../api/pages.keys';

/** 'Creating page...', then 'Your page has been created!' and the dashboard. */
export function useCreatePage() {
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  return useMutation({
    mutationFn: (page: CreatePageRequest) => createPage(page),
    onMutate: () => {
      toast({ title: 'Creating page...' });
    },
    onSuccess: (page) => {
      queryClient.setQueryData(pagesKeys.detail(page.id), page);
      void queryClient.invalidateQueries({ queryKey: pagesKeys.lists() });
      toast({ title: 'Your page has been created!', variant: 'success' });
      navigate('/dashboard');
    },
    onError: (error) =>
      toast({
        title: 'Error',
        description: `Failed to create page: ${errorText(error, 'Unknown error')}`,
        variant: 'destructive',
      }),
  });
}
