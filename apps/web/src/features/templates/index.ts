export { TemplatePicker } from './components/TemplatePicker';
export { usePageTemplate } from './hooks/usePageTemplate';
export { editorTemplateHref, rememberTemplate, takeRememberedTemplate } from './model/pending-template';
