import { ConfirmTexts } from '@plink/contracts';
import { escapeHtml } from './escape';
import { NOT_FOUND_CSS } from './render-document';

/** The confirmation page's own rules on top of the notice pages' look: a real button, a visible focus ring. */
const CONFIRM_CSS =
  NOT_FOUND_CSS +
  'form{margin:0}button{font:inherit;font-weight:600;padding:10px 18px;border-radius:8px;border:0;background:#111827;color:#fff;cursor:pointer}' +
  'button:focus-visible,a:focus-visible{outline:3px solid #2563eb;outline-offset:2px}.page{font-weight:600;color:#111827}';

/** What the confirmation link's page shows (see {@link renderConfirmDocument}). */
export type ConfirmPageState =
  /** The lead waits: a Confirm button that posts to `action` (a GET never confirms: mail scanners open links). */
  | { state: 'ask'; pageTitle: string; action: string }
  /** Confirmed (now, or before): the file link at once when the page has a file. */
  | { state: 'confirmed'; pageTitle: string; fileUrl: string | null }
  /** An unknown or expired token. */
  | { state: 'unknown' };

/**
 * The small page a double opt-in e-mail links to (`/confirm/{token}`), in the look of Plink's notice pages: no
 * script, no creator content but the page's title (escaped), never indexed, no referrer sent on (the address
 * carries the token). It works without JavaScript: the Confirm button is a form post, answered with the
 * confirmed state.
 */
export function renderConfirmDocument(page: ConfirmPageState): string {
  let title: string;
  let body: string;
  if (page.state === 'unknown') {
    title = ConfirmTexts.unknownTitle;
    body = `<p>${escapeHtml(ConfirmTexts.unknownToken)}</p>`;
  } else if (page.state === 'ask') {
    title = ConfirmTexts.pageTitle;
    body =
      `<p>${escapeHtml(ConfirmTexts.explanation)}${page.pageTitle.trim() ? ` <span class="page">${escapeHtml(page.pageTitle)}</span>` : ''}</p>\n` +
      `<form method="post" action="${escapeHtml(page.action)}"><button type="submit">${escapeHtml(ConfirmTexts.button)}</button></form>`;
  } else {
    title = ConfirmTexts.confirmedTitle;
    body =
      `<p role="status">${escapeHtml(ConfirmTexts.confirmedText)}${page.pageTitle.trim() ? ` <span class="page">${escapeHtml(page.pageTitle)}</span>` : ''}</p>` +
      (page.fileUrl ? `\n<a href="${escapeHtml(page.fileUrl)}" rel="noopener noreferrer">${escapeHtml(ConfirmTexts.fileLink)}</a>` : '');
  }
  return (
    '<!DOCTYPE html>\n<html lang="en">\n<head>\n<meta charset="utf-8">\n' +
    '<meta name="viewport" content="width=device-width,initial-scale=1">\n<meta name="robots" content="noindex">\n' +
    '<meta name="referrer" content="no-referrer">\n' +
    `<title>${escapeHtml(title)}</title>\n<link rel="icon" href="/favicon.ico">\n<style>${CONFIRM_CSS}</style>\n</head>\n<body>\n<main>\n` +
    `<h1>${escapeHtml(title)}</h1>\n${body}\n</main>\n</body>\n</html>\n`
  );
}
