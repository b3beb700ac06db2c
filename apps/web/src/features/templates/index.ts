export { TemplatePicker } from './components/TemplatePicker';
export { usePageTemplate } from './hooks/usePageTemplate';
export { editorTemplateHref, rememberTemplate, takeRememberedTemplate, templateSignUpHref } from './model/pending-template';
