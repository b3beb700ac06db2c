export { BrowseTemplatesLink } from './components/BrowseTemplatesLink';
export { TemplateGallery } from './components/TemplateGallery';
export { usePageTemplate } from './hooks/usePageTemplate';
export { editorTemplateHref, rememberTemplate, takeRememberedTemplate } from './model/pending-template';
