import { useState } from 'react';
import { Navigate, useParams, useSearchParams } from 'react-router-dom';
import { PageLoader } from '../../../components/PageLoader';
import { PageLoadError, parsePageId, usePage, usePageLimit } from '../../pages';
import { BrowseTemplatesLink, TemplateGallery, usePageTemplate } from '../../templates';
import { newPageFormValues, pageToFormValues, templateToFormValues } from '../model/page-form';
import { PageEditor } from './PageEditor';

/**
 * Create mode: without a template, the template gallery ("Start blank" there is `?template=blank`); with one, the
 * editor filled with it. A Free creator who has a page meets the page limit before either.
 */
function CreatePageEditor() {
  const templateSlug = useSearchParams()[0].get('template');
  const template = usePageTemplate(templateSlug);
  const { isChecking, limitReached } = usePageLimit();
  // The limit is checked on the way in only: once the editor is open, the page it creates fills a Free
  // creator's one page, and "Your page is live" must stay on screen, not give way to the limit.
  const [opened, setOpened] = useState(false);
  if (!opened && !isChecking && !limitReached && !template.isLoading) setOpened(true);
  if (!opened && (isChecking || template.isLoading)) return <PageLoader />;
  // The dialog opens over the dashboard rather than over an empty page.
  if (!opened && limitReached) return <Navigate to="/dashboard" replace state={{ pageLimit: true }} />;
  if (templateSlug === null) return <TemplateGallery />;
  // Keyed by template: choosing another one starts the form again from it (after asking about unsaved changes).
  return (
    <PageEditor
      key={template.data ? (templateSlug ?? 'blank') : 'blank'}
      mode={{ kind: 'create' }}
      initialValues={template.data ? templateToFormValues(template.data) : newPageFormValues()}
      actions={<BrowseTemplatesLink />}
    />
  );
}

function EditPageEditor({ id }: { id: number }) {
  const page = usePage(id);
  if (page.isError) return <PageLoadError error={page.error} />;
  if (page.isPending) return <PageLoader />;
  // Keyed by page: the form starts from the loaded page and keeps its own state from then on.
  return <PageEditor key={id} mode={{ kind: 'edit', id }} initialValues={pageToFormValues(page.data)} />;
}

/** /editor/new creates a page (first choosing a template); /editor/{id} edits one of the user's pages. */
export function EditorPage() {
  const param = useParams().id;
  if (param === 'new') return <CreatePageEditor />;
  const id = parsePageId(param);
  return id === null ? <PageLoadError /> : <EditPageEditor id={id} />;
}
