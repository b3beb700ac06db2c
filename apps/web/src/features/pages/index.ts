export {
  displayPageUrl,
  leadsExportUrl,
  publicOrigin,
  publicPagePath,
} from './api/pages.api';
export { parsePageId } from './api/page-id';
export { pagesKeys } from './api/pages.keys';
export { PageLiveDialog } from './components/PageLiveDialog';
export { PageLoadError } from './components/PageLoadError';
export { useCopyPageUrl } from './hooks/useCopyPageUrl';
export { useCreatePage } from './hooks/useCreatePage';
export { useSlugAvailability } from './hooks/useSlugAvailability';
export { useDeletePage } from './hooks/useDeletePage';
export { useKeepPageLive } from './hooks/useKeepPageLive';
export { usePage } from './hooks/usePage';
export { usePageLimit } from './hooks/usePageLimit';
export { usePages } from './hooks/usePages';
export { useDailyViews } from './hooks/useDailyViews';
export { usePageStats } from './hooks/usePageStats';
export { useUpdatePage } from './hooks/useUpdatePage';
