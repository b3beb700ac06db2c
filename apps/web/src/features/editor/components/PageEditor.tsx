import { Anchor, Box, Button, Container, Grid, Group, Stack, Tabs, Text, Title } from '@mantine/core';
import { PageMessages } from '@plink/contracts';
import { useState } from 'react';
import { Link } from 'react-router-dom';
import { IconArrowLeft } from '../../../components/icons';
import { errorStatus } from '../../../lib/api-client';
import { toast } from '../../../lib/toast';
import { useSignedInUser } from '../../auth';
import { useCreatePage, useUpdatePage } from '../../pages';
import { usePageForm } from '../hooks/usePageForm';
import { EDITOR_TABS, type EditorTab, tabOfField } from '../model/editor-tabs';
import { formValuesToPreview, formValuesToRequest, type PageFormValues } from '../model/page-form';
import { ContentTab } from './ContentTab';
import { LivePreview } from './LivePreview';
import { ThankYouTab } from './ThankYouTab';

export type EditorMode = { kind: 'create' } | { kind: 'edit'; id: number };

interface PageEditorProps {
  mode: EditorMode;
  initialValues: PageFormValues;
}

/** The save call of the mode: create (then the dashboard) or update (stay). */
function useSavePage(mode: EditorMode) {
  const create = useCreatePage();
  const update = useUpdatePage(mode.kind === 'edit' ? mode.id : 0);
  return mode.kind === 'create' ? create : update;
}

export function PageEditor({ mode, initialValues }: PageEditorProps) {
  const user = useSignedInUser();
  const form = usePageForm(initialValues);
  const [tab, setTab] = useState<EditorTab>('content');
  const save = useSavePage(mode);

  const submit = () => {
    if (!form.getValues().slug.trim()) {
      setTab('content');
      form.validateField('slug');
      toast({ title: 'Missing field', description: 'URL slug is required', variant: 'destructive' });
      return;
    }
    const { hasErrors, errors } = form.validate();
    if (hasErrors) {
      const fields = Object.keys(errors);
      const tabWithError = fields.map(tabOfField).find((value) => value !== undefined);
      if (tabWithError) setTab(tabWithError);
      toast({
        title: 'Error',
        description: tabWithError
          ? 'Please correct the highlighted fields before saving.'
          : String(errors[fields[0]]),
        variant: 'destructive',
      });
      return;
    }
    save.mutate(formValuesToRequest(form.getValues()), {
      onError: (error) => {
        // A taken or reserved slug is the slug field's problem: show it there too.
        if (errorStatus(error) === 409 || error.message === PageMessages.slugReserved) {
          setTab('content');
          form.setFieldError('slug', error.message);
        }
      },
    });
  };

  const creating = mode.kind === 'create';
  return (
    <Container size="xl" py="xl">
      <Stack gap="lg">
        <Anchor component={Link} to="/dashboard" c="dimmed" size="sm">
          <Group gap={6}>
            <IconArrowLeft size={16} />
            Back to Dashboard
          </Group>
        </Anchor>
        <Group justify="space-between" align="flex-end">
          <div>
            <Title order={1} fz="h2">
              {creating ? 'Create Page' : 'Edit Page'}
            </Title>
            <Text c="dimmed">
              {creating ? 'Build your landing page and watch the preview.' : 'Changes go live when you save.'}
            </Text>
          </div>
          <Button onClick={submit} loading={save.isPending}>
            Save
          </Button>
        </Group>
        <Grid gap="xl" overflow="visible">
          <Grid.Col span={{ base: 12, md: 6 }}>
            {/* Saving is the Save button's job only: Enter in a field never creates a page. */}
            <form noValidate onSubmit={(event) => event.preventDefault()}>
              <Tabs value={tab} onChange={(value) => value && setTab(value as EditorTab)}>
                <Tabs.List mb="md">
                  {EDITOR_TABS.map(({ value, label }) => (
                    <Tabs.Tab key={value} value={value}>
                      {label}
                    </Tabs.Tab>
                  ))}
                </Tabs.List>
                <Tabs.Panel value="content">
                  <ContentTab form={form} />
                </Tabs.Panel>
                <Tabs.Panel value="thank-you">
                  <ThankYouTab form={form} />
                </Tabs.Panel>
              </Tabs>
            </form>
          </Grid.Col>
          <Grid.Col span={{ base: 12, md: 6 }}>
            <Box pos="sticky" top={16}>
              <LivePreview
                page={formValuesToPreview(form.values, user.username)}
                state={tab === 'thank-you' ? 'thank-you' : 'form'}
              />
            </Box>
          </Grid.Col>
        </Grid>
      </Stack>
    </Container>
  );
}
