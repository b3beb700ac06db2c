/**
 * @plink/page-render — the public landing page.
 *
 * This entry (compiled to CommonJS in dist/) is for the server: it re-exports the browser-safe parts
 * AND the Node-only document renderer (react-dom/server). Browser code — the SPA's editor preview —
 * must import `src/browser.ts` instead (Vite alias to the TypeScript source), which has no Node-only
 * code.
 */
export * from './browser';
export {
  renderPublicPageDocument,
  renderPublicPage,
  type RenderedPublicPage,
  renderNotFoundDocument,
  renderPausedDocument,
  type PublicPageDocumentOptions,
} from './server/render-document';
export { renderConfirmDocument, type ConfirmPageState } from './server/confirm-document';
export { resolveFontFile } from './server/font-files';
export { escapeHtml, scriptJson } from './server/escape';
export { THANK_YOU_TEMPLATE_ID } from './server/inline-script';
export {
  SANDBOX_POLICY,
  NOT_FOUND_POLICY,
  creatorCodeIsolation,
  hasCreatorCode,
  publicPagePolicy,
  type CreatorCodeIsolation,
} from './server/page-policy';
