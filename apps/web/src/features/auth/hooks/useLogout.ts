import { hashKey, useMutation, useQueryClient } from '@tanstack/react-query';
import { useNavigate } from 'react-router-dom';
import { errorText } from '../../../lib/api-client';
import { toast } from '../../../lib/toast';
import { logout } from '../api/auth.api';
import { authKeys } from '../api/auth.keys';

export function useLogout() {
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  return useMutation({
    mutationFn: logout,
    onSuccess: () => {
      // Every cached answer goes. The user query itself stays, answering null, so that mounted
      // observers (the navbar) see the logout at once instead of holding a removed query.
      const userHash = hashKey(authKeys.user());
      queryClient.removeQueries({ predicate: (query) => query.queryHash !== userHash });
      queryClient.setQueryData(authKeys.user(), null);
      navigate('/');
    },
    onError: (error) =>
      toast({
        title: 'Logout failed',
        description: errorText(error, 'Logout failed'),
        variant: 'destructive',
      }),
  });
}
