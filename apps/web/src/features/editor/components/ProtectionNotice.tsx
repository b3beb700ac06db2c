import { Alert, Button, Stack, Text } from '@mantine/core';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { PageProtectionDto } from '@plink/contracts';
import { errorText } from '../../../lib/api-client';
import { toast } from '../../../lib/toast';
import { pagesKeys } from '../../pages';
import { endProtection, fetchProtection } from '../api/protection.api';

/**
 * The page's "under attack" state on the Settings tab: while bot sign-ups switched it to confirm-by-e-mail, a
 * notice says until when, with a button that ends it. Nothing is shown otherwise (or for an unsaved page).
 */
export function ProtectionNotice({ pageId }: { pageId: number | null }) {
  const queryClient = useQueryClient();
  const key = pagesKeys.protection(pageId ?? 0);
  const { data } = useQuery({ queryKey: key, queryFn: () => fetchProtection(pageId ?? 0), enabled: pageId !== null });
  const end = useMutation({
    mutationFn: () => endProtection(pageId ?? 0),
    onSuccess: (state) => {
      queryClient.setQueryData<PageProtectionDto>(key, state);
      toast({ title: 'Confirm-by-e-mail ended', description: 'Sign-ups follow the page\'s own setting again.', variant: 'success' });
    },
    onError: (error) => toast({ title: 'Not ended', description: errorText(error, 'Unknown error'), variant: 'destructive' }),
  });
  if (!data?.underAttackUntil) return null;
  const until = new Date(data.underAttackUntil).toLocaleString();
  return (
    <Alert color="orange" title="Bot sign-ups detected" data-testid="protection-notice">
      <Stack gap="xs" align="flex-start">
        <Text size="sm">Bot sign-ups detected: visitors confirm by e-mail until {until}.</Text>
        <Button size="compact-sm" variant="light" color="orange" loading={end.isPending} onClick={() => end.mutate()}>
          End confirm-by-e-mail
        </Button>
      </Stack>
    </Alert>
  );
}
