import { useNavigate, useParams } from 'react-router-dom';
import { PageLoader } from '../../../components/PageLoader';
import { PageLimitDialog, PageLoadError, parsePageId, usePage, usePageLimit } from '../../pages';
import { newPageFormValues, pageToFormValues } from '../model/page-form';
import { PageEditor } from './PageEditor';

function CreatePageEditor() {
  const navigate = useNavigate();
  const { isChecking, limitReached } = usePageLimit();
  if (isChecking) return <PageLoader />;
  if (limitReached) return <PageLimitDialog opened onBack={() => navigate('/dashboard')} />;
  return <PageEditor mode={{ kind: 'create' }} initialValues={newPageFormValues()} />;
}

function EditPageEditor({ id }: { id: number }) {
  const page = usePage(id);
  if (page.isError) return <PageLoadError error={page.error} />;
  if (page.isPending) return <PageLoader />;
  // Keyed by page: the form starts from the loaded page and keeps its own state from then on.
  return <PageEditor key={id} mode={{ kind: 'edit', id }} initialValues={pageToFormValues(page.data)} />;
}

/** /editor/new creates a page; /editor/{id} edits one of the user's pages. */
export function EditorPage() {
  const param = useParams().id;
  if (param === 'new') return <CreatePageEditor />;
  const id = parsePageId(param);
  return id === null ? <PageLoadError /> : <EditPageEditor id={id} />;
}
