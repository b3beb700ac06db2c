import { useMutation, useQueryClient } from '@tanstack/react-query';
import { errorText } from '../../../lib/api-client';
import { PRODUCT_NAME } from '../../../lib/constants';
import { toast } from '../../../lib/toast';
import { deletePage } from '../api/pages.api';
import { pagesKeys } from '../api/pages.keys';

export function useDeletePage() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: number) => deletePage(id),
    onSuccess: async (_answer, id) => {
      queryClient.removeQueries({ queryKey: pagesKeys.detail(id) });
      queryClient.removeQueries({ queryKey: pagesKeys.stats(id) });
      toast({ title: 'Success', description: `${PRODUCT_NAME} deleted successfully`, variant: 'success' });
      await queryClient.invalidateQueries({ queryKey: pagesKeys.lists() });
    },
    onError: (error) =>
      toast({
        title: 'Error',
        description: `Failed to delete ${PRODUCT_NAME}: ${errorText(error, 'Unknown error')}`,
        variant: 'destructive',
      }),
  });
}
