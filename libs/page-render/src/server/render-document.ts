import { createElement } from 'react';
import { renderToString } from 'react-dom/server';
import { PausedPageTexts, SUBMIT_REDIRECT_DELAY_MS, type PublicPageDto } from '@plink/contracts';
import { LandingPage, ThankYouMessage, type LandingPageState } from '../components/LandingPage';
import { LANDING_PAGE_CSS } from '../components/styles';
import { fontFaceCss, preloadFontUrls } from '../components/fonts';
import { safeUrl } from '../components/theme';
import { socialCard } from '../components/social-card';
import { escapeHtml, scriptJson } from './escape';
import { THANK_YOU_TEMPLATE_ID, submitScript } from './inline-script';
import { trackingTags } from './tracking';
import { hasCreatorCode, publicPagePolicy, type CreatorCodeIsolation } from './page-policy';

/** Node-only (react-dom/server): the public landing page as a complete HTML document. */

export interface PublicPageDocumentOptions {
  state: LandingPageState;
  /** Absolute canonical URL of the page (also og:url). */
  canonicalUrl: string;
  /** The landing pages' origin (`https://plink.page`), for absolute og:image / twitter:image URLs. */
  appOrigin: string;
  /** Where the inline script POSTs JSON; default `/api/page/{slug}/submit`. */
  submitUrl?: string;
  /** Where the form POSTs without JavaScript; default the page's own path `/{slug}`. */
  formAction?: string;
  /** An error under the form (e.g. the answer to a failed no-JavaScript post). */
  error?: string | null;
  /** Prefills the e-mail field when the form is re-drawn after a failed no-JavaScript post. */
  submittedEmail?: string;
  /** The HTTP status is the caller's business, not the document's. */
  status?: never;
}

const meta = (attr: 'name' | 'property', key: string, content: string) =>
  `<meta ${attr}="${key}" content="${escapeHtml(content)}">`;

/**
 * A complete HTML5 document for a visitor: head tags (title, description, canonical, Open Graph,
 * Twitter card, favicon, the owner's custom code), the inlined stylesheet, the page data preloaded
 * as `window.__PLINK_PAGE__`, the server-rendered LandingPage inside `<div id="root">`, and — in the
 * form state — the thank-you <template> plus the small inline submit script. No React on the client.
 */
export function renderPublicPageDocument(page: PublicPageDto, options: PublicPageDocumentOptions): string {
  return renderDocument(page, options).html;
}

/** A landing page's document with the headers it must be sent with. */
export interface RenderedPublicPage {
  html: string;
  /** The page's own Content-Security-Policy (see {@link publicPagePolicy}); null: send none. */
  contentSecurityPolicy: string | null;
}

/**
 * The landing page's document and its policy. `isolation` says how a page with its owner's code is kept
 * away from the app (a sandbox on a shared host, or nothing more on a host of its own).
 */
export function renderPublicPage(
  page: PublicPageDto,
  options: PublicPageDocumentOptions & { isolation: CreatorCodeIsolation },
): RenderedPublicPage {
  const { html, inlineScripts } = renderDocument(page, options);
  return { html, contentSecurityPolicy: publicPagePolicy(hasCreatorCode(page), inlineScripts, options.isolation) };
}

function renderDocument(page: PublicPageDto, options: PublicPageDocumentOptions): { html: string; inlineScripts: string[] } {
  const slug = encodeURIComponent(page.slug);
  // The same card the editor previews after the first save.
  const { title, description, image } = socialCard(page, options.appOrigin);
  const favicon = safeUrl(page.faviconUrl) ?? '/favicon.ico';
  const redirectUrl = safeUrl(page.redirectUrl);

  const head: string[] = [
    '<meta charset="utf-8">',
    '<meta name="viewport" content="width=device-width,initial-scale=1">',
    `<title>${escapeHtml(title)}</title>`,
  ];
  if (description) head.push(meta('name', 'description', description));
  head.push(
    `<link rel="canonical" href="${escapeHtml(options.canonicalUrl)}">`,
    `<link rel="icon" href="${escapeHtml(favicon)}">`,
    meta('property', 'og:type', 'website'),
    meta('property', 'og:title', title),
    meta('property', 'og:url', options.canonicalUrl),
  );
  if (description) head.push(meta('property', 'og:description', description));
  if (image) head.push(meta('property', 'og:image', image));
  head.push(meta('name', 'twitter:card', image ? 'summary_large_image' : 'summary'), meta('name', 'twitter:title', title));
  if (description) head.push(meta('name', 'twitter:description', description));
  if (image) head.push(meta('name', 'twitter:image', image));
  if (options.state === 'thank-you' && redirectUrl) {
    // The no-JavaScript thank-you answer still redirects after 3 s.
    head.push(`<meta http-equiv="refresh" content="${SUBMIT_REDIRECT_DELAY_MS / 1000};url=${escapeHtml(redirectUrl)}">`);
  }

  const markup = renderToString(
    createElement(LandingPage, {
      page,
      state: options.state,
      error: options.error ?? null,
      formAction: options.formAction ?? `/${slug}`,
      submittedEmail: options.submittedEmail,
    }),
  );
  // React 19 puts <link rel="preload"> hints for images first; they belong in <head>.
  const [, preloads = '', body = markup] = /^((?:<link [^>]*>)*)([\s\S]*)$/.exec(markup) ?? [];
  if (preloads) head.push(preloads);
  // Only the fonts this page draws, self-hosted; the headline's font is fetched first.
  for (const href of preloadFontUrls(page)) {
    head.push(`<link rel="preload" href="${escapeHtml(href)}" as="font" type="font/woff2" crossorigin>`);
  }
  const fonts = fontFaceCss(page);
  // Plink's own inline scripts, kept to hash them into the page's policy.
  const inlineScripts = [`window.__PLINK_PAGE__=${scriptJson(page)};`];
  head.push(`<style>html,body{margin:0}\n${fonts ? `${fonts}\n` : ''}${LANDING_PAGE_CSS}</style>`, `<script>${inlineScripts[0]}</script>`);
  head.push(...trackingTags(page));
  // The Pro owner's own code, injected into <head> as written: it may bring scripts, pixels, styles.
  if (page.customCodeSnippet?.trim()) head.push(page.customCodeSnippet);

  let tail = '';
  if (options.state === 'form') {
    const script = submitScript({ submitUrl: options.submitUrl ?? `/api/page/${slug}/submit`, redirectUrl });
    inlineScripts.push(script);
    tail = `<template id="${THANK_YOU_TEMPLATE_ID}">${renderToString(createElement(ThankYouMessage, { page }))}</template><script>${script}</script>`;
  }

  const html =
    '<!DOCTYPE html>\n<html lang="en">\n<head>\n' +
    head.join('\n') +
    '\n</head>\n<body>\n<div id="root">' +
    body +
    '</div>\n' +
    tail +
    '\n</body>\n</html>\n';
  return { html, inlineScripts };
}

export const NOT_FOUND_CSS =
  'html,body{margin:0}body{min-height:100vh;display:flex;align-items:center;justify-content:center;padding:24px;box-sizing:border-box;' +
  'font-family:system-ui,-apple-system,Segoe UI,Roboto,Helvetica,Arial,sans-serif;color:#111827;background:#f9fafb;text-align:center}' +
  'h1{margin:0 0 8px;font-size:28px}p{margin:0 0 24px;color:#4b5563}a{display:inline-block;padding:10px 18px;border-radius:8px;' +
  'background:#111827;color:#fff;text-decoration:none;font-weight:600}';

/** A short notice in the not-found page's look: no creator content, never indexed (`title` and `text` are Plink's own HTML-safe texts). */
function renderNoticeDocument(title: string, text: string, appOrigin?: string): string {
  const home = appOrigin ? `${appOrigin.replace(/\/+$/, '')}/` : '/';
  return (
    '<!DOCTYPE html>\n<html lang="en">\n<head>\n<meta charset="utf-8">\n' +
    '<meta name="viewport" content="width=device-width,initial-scale=1">\n<meta name="robots" content="noindex">\n' +
    `<title>${title}</title>\n<link rel="icon" href="/favicon.ico">\n<style>${NOT_FOUND_CSS}</style>\n</head>\n<body>\n<main>\n` +
    `<h1>${title}</h1>\n<p>${text}</p>\n` +
    `<a href="${escapeHtml(home)}">Go to the home page</a>\n</main>\n</body>\n</html>\n`
  );
}

/** The answer for an unknown slug (the caller sends it with status 404). */
export function renderNotFoundDocument(appOrigin?: string): string {
  return renderNoticeDocument('Page Not Found', "This Plink page doesn't exist or may have been removed.", appOrigin);
}

/**
 * The answer for a page paused after its owner's downgrade (sent with status 404 and NOT_FOUND_POLICY):
 * it says so, and nothing of the page (not even its title) nor of its creator.
 */
export function renderPausedDocument(appOrigin?: string): string {
  return renderNoticeDocument(PausedPageTexts.title, PausedPageTexts.explanation, appOrigin);
}
