import { Button, Center, Container, Group, Loader, Stack, Text, Title } from '@mantine/core';
import { useState } from 'react';
import { useParams } from 'react-router-dom';
import { BackToDashboardLink } from '../../../components/BackToDashboardLink';
import { PageLoader } from '../../../components/PageLoader';
import { IconDownload, IconExternalLink } from '../../../components/icons';
import { errorText } from '../../../lib/api-client';
import { leadsExportUrl, PageLoadError, parsePageId, publicPagePath, usePage, usePageStats } from '../../pages';
import { AnalyticsSection } from './AnalyticsSection';
import { LeadsTable } from './LeadsTable';
import { StatsPanel } from './StatsPanel';
import { rangeOf, type StatsRangeChoice } from './stats-range';

const newTab = { target: '_blank', rel: 'noopener noreferrer' } as const;

export function StatsPage() {
  const id = parsePageId(useParams().id);
  const page = usePage(id);
  const [choice, setChoice] = useState<StatsRangeChoice>('30');
  // Asked beside the page (no waterfall): only "all time" needs the page's creation day, picked once it shows.
  const stats = usePageStats(id, rangeOf(choice, page.data?.createdAt ?? ''));

  if (id === null) return <PageLoadError />;
  if (page.isError) return <PageLoadError error={page.error} />;
  if (page.isPending) return <PageLoader />;

  return (
    <Container size="lg" py="xl">
      <Stack gap="lg">
        <BackToDashboardLink />
        <Group justify="space-between" align="flex-end">
          <div>
            <Title order={1} fz="h2">
              {page.data.title || 'Untitled'}
            </Title>
            <Text c="dimmed">Page statistics</Text>
          </div>
          <Group gap="sm">
            <Button component="a" href={leadsExportUrl(id)} {...newTab} variant="default" leftSection={<IconDownload size={16} />}>
              Download Leads
            </Button>
            <Button component="a" href={publicPagePath(page.data.slug)} {...newTab} leftSection={<IconExternalLink size={16} />}>
              View Live Page
            </Button>
          </Group>
        </Group>
        {stats.isPending ? (
          <Center py="xl" role="status" aria-label="Loading statistics">
            <Loader />
          </Center>
        ) : stats.isError ? (
          <Text c="red" role="alert">
            Failed to load stats: {errorText(stats.error, 'Unknown error')}
          </Text>
        ) : (
          <>
            <StatsPanel stats={stats.data} pageId={id} />
            <AnalyticsSection analytics={stats.data} choice={choice} onChoice={setChoice} />
            <LeadsTable pageId={id} />
          </>
        )}
      </Stack>
    </Container>
  );
}
