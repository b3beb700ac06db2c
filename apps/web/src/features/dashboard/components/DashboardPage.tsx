import { Button, Card, Center, Container, Group, Loader, Stack, Text, Title } from '@mantine/core';
import type { PageDto } from '@plink/contracts';
import { useEffect, useState, type MouseEvent } from 'react';
import { Link, useLocation, useNavigate } from 'react-router-dom';
import { PRODUCT_NAME } from '../../../lib/constants';
import { lazyDialog } from '../../../lib/lazy-dialog';
import { usePremiumRecheck } from '../../billing';
import { useSignedInUser } from '../../auth';
import { editorTemplateHref, takeRememberedTemplate } from '../../templates';
import { useDeletePage, useKeepPageLive, usePageLimit, usePages } from '../../pages';
import { useEmailVerifiedToast } from '../hooks/useEmailVerifiedToast';
import { useLeadRemovalDate } from '../hooks/useLeadRemovalDate';
import { EmptyPagesIllustration } from './EmptyPagesIllustration';
import { LeadRemovalBanner } from './LeadRemovalBanner';
import { PagesTable } from './PagesTable';
import { SummaryCards } from './SummaryCards';
import { UpgradePanel } from './UpgradePanel';

// The dialogs load when they first open.
const DeletePageDialog = lazyDialog(() => import('./DeletePageDialog').then((module) => module.DeletePageDialog));
const PageLimitDialog = lazyDialog(() => import('../../pages/components/PageLimitDialog').then((module) => module.PageLimitDialog));

/** A link to /editor/new, or the 'Page Limit Reached' dialog for a Free user who has a page. */
function CreatePageButton({ children, onLimit }: { children: string; onLimit: () => void }) {
  const { limitReached } = usePageLimit();
  const onClick = (event: MouseEvent) => {
    if (!limitReached) return;
    event.preventDefault();
    onLimit();
  };
  return (
    <Button component={Link} to="/editor/new" onClick={onClick}>
      {children}
    </Button>
  );
}

/** No pages yet: a picture, 'You haven't created any plinks yet.' and the one call to action. */
function EmptyState({ onLimit }: { onLimit: () => void }) {
  return (
    <Stack align="center" gap="md" py="xl" ta="center">
      <EmptyPagesIllustration />
      <Text fw={600} size="lg">
        You haven&apos;t created any plinks yet.
      </Text>
      <Text c="dimmed" size="sm" maw={360}>
        Build a landing page in a minute, or start from one of the example templates in the editor.
      </Text>
      <CreatePageButton onLimit={onLimit}>{`Create Your First ${PRODUCT_NAME}`}</CreatePageButton>
    </Stack>
  );
}

/**
 * After "Use this template" a signed-out visitor registers and verifies their address; when they reach
 * the dashboard, the editor opens with the template they chose.
 */
function useRememberedTemplate() {
  const navigate = useNavigate();
  useEffect(() => {
    const template = takeRememberedTemplate();
    if (template) navigate(editorTemplateHref(template), { replace: true });
  }, [navigate]);
}

/** The editor sends a Free user who has a page here with `pageLimit` in the state: the dialog opens over the dashboard. */
function usePageLimitFromEditor(open: () => void) {
  const location = useLocation();
  const navigate = useNavigate();
  const fromEditor = (location.state as { pageLimit?: boolean } | null)?.pageLimit === true;
  useEffect(() => {
    if (!fromEditor) return;
    open();
    navigate(location.pathname + location.search, { replace: true, state: null });
  }, [fromEditor, open, navigate, location.pathname, location.search]);
}

export function DashboardPage() {
  const user = useSignedInUser();
  useEmailVerifiedToast();
  usePremiumRecheck();
  useRememberedTemplate();
  const pages = usePages();
  const deletion = useDeletePage();
  const keepLive = useKeepPageLive();
  const hasPausedPages = !user.isPremium && !!pages.data?.some((page) => page.paused);
  const leadRemovalAt = useLeadRemovalDate(hasPausedPages);
  const [pageToDelete, setPageToDelete] = useState<PageDto | null>(null);
  const [limitDialogOpen, setLimitDialogOpen] = useState(false);
  const [openLimitDialog] = useState(() => () => setLimitDialogOpen(true));
  usePageLimitFromEditor(openLimitDialog);
  const isEmpty = pages.data?.length === 0;

  const confirmDelete = () => {
    if (!pageToDelete) return;
    deletion.mutate(pageToDelete.id, { onSettled: () => setPageToDelete(null) });
  };

  return (
    <Container size="lg" py="xl">
      <Stack gap="lg">
        <Group justify="space-between" align="flex-end">
          <div>
            <Title order={1} fz="h2">
              Dashboard
            </Title>
            <Text c="dimmed">Welcome, {user.username}.</Text>
          </div>
          {/* An empty list has its own call to action. */}
          {!isEmpty && <CreatePageButton onLimit={openLimitDialog}>Create New</CreatePageButton>}
        </Group>
        {leadRemovalAt && <LeadRemovalBanner removalAt={leadRemovalAt} />}
        {!user.isPremium && <UpgradePanel />}
        {pages.data && <SummaryCards pages={pages.data} />}
        <Card withBorder radius="md" padding="lg">
          {pages.isPending ? (
            <Center py="xl" role="status" aria-label="Loading your plinks">
              <Loader />
            </Center>
          ) : pages.isError ? (
            <Text c="red" ta="center" py="xl" role="alert">
              Error loading your plinks. Please try again later.
            </Text>
          ) : pages.data.length === 0 ? (
            <EmptyState onLimit={openLimitDialog} />
          ) : (
            <PagesTable
              pages={pages.data}
              onDelete={setPageToDelete}
              onKeepLive={user.isPremium ? undefined : (page) => keepLive.mutate(page.id)}
              keepingLiveId={keepLive.isPending ? (keepLive.variables ?? null) : null}
            />
          )}
        </Card>
      </Stack>
      <DeletePageDialog
        opened={pageToDelete !== null}
        pending={deletion.isPending}
        onConfirm={confirmDelete}
        onCancel={() => setPageToDelete(null)}
      />
      <PageLimitDialog opened={limitDialogOpen} onBack={() => setLimitDialogOpen(false)} />
    </Container>
  );
}
