import { Anchor, Button, Card, Group, Loader, Text, Title } from '@mantine/core';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { errorText } from '../../../lib/api-client';
import { toast } from '../../../lib/toast';
import { exportDownloadUrl, latestExport, startExport } from '../api/account-data.api';

const exportKey = ['account-data', 'export'] as const;
/** How often the card asks while an export is being built. */
const POLL_MS = 2_000;

function megabytes(bytes: number): string {
  return bytes < 1024 * 1024 ? `${Math.max(1, Math.round(bytes / 1024))} KB` : `${(bytes / 1024 / 1024).toFixed(1)} MB`;
}

/**
 * Settings → Account → Export my data: one ZIP of the account, its pages, their images and leads, built by jobs.
 * The card shows the newest export (asking every 2 s while it is built) and its download link once ready, for the
 * 24 hours it is kept; the same link is e-mailed.
 */
export function ExportDataCard() {
  const queryClient = useQueryClient();
  const latest = useQuery({
    queryKey: exportKey,
    queryFn: latestExport,
    refetchInterval: (query) => (query.state.data?.export?.status === 'pending' ? POLL_MS : false),
  });
  const start = useMutation({
    mutationFn: startExport,
    onSuccess: () => void queryClient.invalidateQueries({ queryKey: exportKey }),
    onError: (error) => toast({ title: 'Export not started', description: errorText(error, 'The export could not be started'), variant: 'destructive' }),
  });
  const current = latest.data?.export ?? null;
  const pending = current?.status === 'pending' || start.isPending;

  return (
    <Card withBorder radius="md" padding="lg">
      <Title order={2} fz="h4" lh="h3">
        Export my data
      </Title>
      <Text c="dimmed" size="sm" mb="md">
        One ZIP file with your account, and for each page its settings, uploaded images and leads (CSV). We email you a
        download link when it is ready; it works for 24 hours.
      </Text>
      {pending ? (
        <Group gap="xs" role="status">
          <Loader size="xs" />
          <Text size="sm">Preparing your export…</Text>
        </Group>
      ) : null}
      {!pending && current?.status === 'ready' ? (
        <Text size="sm" mb="sm" role="status">
          Your export is ready:{' '}
          <Anchor href={exportDownloadUrl(current.id)} download>
            Download ZIP ({megabytes(current.size ?? 0)})
          </Anchor>
          {current.expiresAt ? `, until ${new Date(current.expiresAt).toLocaleString()}` : null}.
        </Text>
      ) : null}
      {!pending && current?.status === 'failed' ? (
        <Text size="sm" c="red.8" mb="sm" role="status">
          The last export failed. Please try again.
        </Text>
      ) : null}
      {!pending ? (
        <Button variant="default" style={{ alignSelf: 'flex-start' }} onClick={() => start.mutate()}>
          Export my data
        </Button>
      ) : null}
    </Card>
  );
}
