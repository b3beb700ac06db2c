import type { ReactNode } from 'react';
import { Box, Button, Container, Grid, Group, SegmentedControl, Stack, Tabs, Text, Title } from '@mantine/core';
import { PageMessages, type PageDto } from '@plink/contracts';
import { useState } from 'react';
import { useNavigate } from 'react-router-dom';
import { BackToDashboardLink } from '../../../components/BackToDashboardLink';
import { errorStatus } from '../../../lib/api-client';
import { toast } from '../../../lib/toast';
import { useSignedInUser } from '../../auth';
import { PageLiveDialog, publicPagePath, useCopyPageUrl, useCreatePage, useUpdatePage } from '../../pages';
import { usePageForm } from '../hooks/usePageForm';
import { useUnsavedChangesPrompt } from '../hooks/useUnsavedChangesPrompt';
import { EDITOR_TABS, type EditorTab, tabOfField } from '../model/editor-tabs';
import { formValuesToPreview, formValuesToRequest, type PageFormValues } from '../model/page-form';
import { applyFreePlan } from '../model/plan-gating';
import { AppearanceTab } from './AppearanceTab';
import { ContentTab } from './ContentTab';
import { DeliveryEmailTab } from './DeliveryEmailTab';
import { LivePreview } from './LivePreview';
import { SettingsTab } from './SettingsTab';
import { SharingTab } from './SharingTab';
import { ThankYouTab } from './ThankYouTab';
import { UnsavedChangesDialog } from './UnsavedChangesDialog';

export type EditorMode = { kind: 'create' } | { kind: 'edit'; id: number };

interface PageEditorProps {
  mode: EditorMode;
  initialValues: PageFormValues;
  /** More buttons beside Save (create mode: "Browse templates", back to the gallery). */
  actions?: ReactNode;
}

/** The save call of the mode: create (then "Your page is live", then the dashboard) or update (stay). */
function useSavePage(mode: EditorMode) {
  const create = useCreatePage();
  const update = useUpdatePage(mode.kind === 'edit' ? mode.id : 0);
  return mode.kind === 'create' ? create : update;
}

export function PageEditor({ mode, initialValues, actions }: PageEditorProps) {
  const user = useSignedInUser();
  const form = usePageForm(initialValues);
  const [tab, setTab] = useState<EditorTab>('content');
  // On a narrow screen the form and the preview take turns.
  const [narrowView, setNarrowView] = useState<'edit' | 'preview'>('edit');
  const save = useSavePage(mode);
  const copyPageUrl = useCopyPageUrl();
  // The address the page answers at now: the last saved slug, not the one being typed.
  const [liveSlug, setLiveSlug] = useState(initialValues.slug);
  const unsaved = useUnsavedChangesPrompt(form.isDirty());
  // The page just created: "Your page is live" shows it until the creator goes on to the dashboard.
  const [createdPage, setCreatedPage] = useState<PageDto | null>(null);
  const navigate = useNavigate();

  const submit = () => {
    if (!form.getValues().slug.trim()) {
      setTab('content');
      setNarrowView('edit');
      form.validateField('slug');
      toast({ title: 'Missing field', description: 'URL slug is required', variant: 'destructive' });
      return;
    }
    const { hasErrors, errors } = form.validate();
    if (hasErrors) {
      const fields = Object.keys(errors);
      const tabWithError = fields.map(tabOfField).find((value) => value !== undefined);
      if (tabWithError) setTab(tabWithError);
      setNarrowView('edit');
      toast({
        title: 'Error',
        description: tabWithError
          ? 'Please correct the highlighted fields before saving.'
          : String(errors[fields[0]]),
        variant: 'destructive',
      });
      return;
    }
    const values = form.getValues();
    // Creating ends on the dashboard: that navigation is the save's own, not a loss of changes.
    if (mode.kind === 'create') unsaved.allowNextNavigation();
    save.mutate(formValuesToRequest(applyFreePlan(values, user.isPremium)), {
      onSuccess: (page) => {
        form.resetDirty(values);
        setLiveSlug(values.slug.trim());
        if (mode.kind === 'create') setCreatedPage(page);
      },
      onError: (error) => {
        unsaved.allowNextNavigation(false);
        // A taken or reserved slug is the slug field's problem: show it there too.
        if (errorStatus(error) === 409 || error.message === PageMessages.slugReserved) {
          setTab('content');
          setNarrowView('edit');
          form.setFieldError('slug', error.message);
        }
      },
    });
  };

  const creating = mode.kind === 'create';
  const preview = (
    <LivePreview page={formValuesToPreview(form.values, user.username)} state={tab === 'thank-you' ? 'thank-you' : 'form'} />
  );
  return (
    <Container size="xl" py="xl">
      <Stack gap="lg">
        <BackToDashboardLink />
        <Group justify="space-between" align="flex-end">
          <div>
            <Title order={1} fz="h2">
              {creating ? 'Create Page' : 'Edit Page'}
            </Title>
            <Text c="dimmed">
              {creating ? 'Build your landing page and watch the preview.' : 'Changes go live when you save.'}
            </Text>
          </div>
          <Group gap="sm" wrap="wrap">
            {form.isDirty() && (
              <Text size="sm" c="dimmed" data-testid="unsaved-indicator">
                Unsaved changes
              </Text>
            )}
            {actions}
            {!creating && liveSlug && (
              <>
                <Button variant="default" component="a" href={publicPagePath(liveSlug)} target="_blank" rel="noopener noreferrer">
                  View live page
                </Button>
                <Button variant="default" onClick={() => void copyPageUrl(liveSlug)}>
                  Copy link
                </Button>
              </>
            )}
            <Button onClick={submit} loading={save.isPending}>
              Save
            </Button>
          </Group>
        </Group>
        <SegmentedControl
          hiddenFrom="md"
          fullWidth
          value={narrowView}
          onChange={(value) => setNarrowView(value as 'edit' | 'preview')}
          data={[
            { value: 'edit', label: 'Edit' },
            { value: 'preview', label: 'Preview' },
          ]}
          aria-label="Show the form or the preview"
        />
        <Grid gap="xl" overflow="visible">
          <Grid.Col span={{ base: 12, md: 6 }} visibleFrom={narrowView === 'edit' ? undefined : 'md'}>
            {/* Saving is the Save button's job only: Enter in a field never creates a page. */}
            <form noValidate onSubmit={(event) => event.preventDefault()}>
              <Tabs value={tab} onChange={(value) => value && setTab(value as EditorTab)} keepMounted={false}>
                <Tabs.List mb="md">
                  {EDITOR_TABS.map(({ value, label }) => (
                    <Tabs.Tab key={value} value={value}>
                      {label}
                    </Tabs.Tab>
                  ))}
                </Tabs.List>
                <Tabs.Panel value="content">
                  <ContentTab form={form} savedPage={mode.kind === 'edit' ? { id: mode.id, savedSlug: liveSlug } : undefined} />
                </Tabs.Panel>
                <Tabs.Panel value="appearance">
                  <AppearanceTab form={form} />
                </Tabs.Panel>
                <Tabs.Panel value="settings">
                  <SettingsTab form={form} isPremium={user.isPremium} pageId={mode.kind === 'edit' ? mode.id : null} />
                </Tabs.Panel>
                <Tabs.Panel value="thank-you">
                  <ThankYouTab form={form} />
                </Tabs.Panel>
                <Tabs.Panel value="delivery-email">
                  <DeliveryEmailTab form={form} user={user} pageId={mode.kind === 'edit' ? mode.id : null} />
                </Tabs.Panel>
                <Tabs.Panel value="metadata">
                  <SharingTab form={form} savedSlug={mode.kind === 'edit' ? liveSlug : null} />
                </Tabs.Panel>
              </Tabs>
            </form>
          </Grid.Col>
          <Grid.Col span={{ base: 12, md: 6 }} visibleFrom={narrowView === 'preview' ? undefined : 'md'}>
            <Box pos="sticky" top={16}>
              {preview}
            </Box>
          </Grid.Col>
        </Grid>
      </Stack>
      <UnsavedChangesDialog blocker={unsaved.blocker} />
      <PageLiveDialog page={createdPage} onClose={() => navigate('/dashboard')} />
    </Container>
  );
}
