import { createHash } from 'node:crypto';
import type { PublicPageDto } from '@plink/contracts';
import { trackingTags } from './tracking';

/**
 * How a landing page that carries its owner's code (custom code snippet, Google Analytics, Meta pixel) is
 * kept away from the app:
 * - `own-origin`: landing pages have their own host (PUBLIC_ORIGIN ≠ APP_ORIGIN), so the code runs there,
 *   where the app's cookies and storage do not exist; it runs as written, with no script policy;
 * - `sandbox`: one host for both: the page is served with {@link SANDBOX_POLICY}, which gives the document an
 *   opaque origin (no cookies, no storage, every request to the host is cross-origin and uncredentialed),
 *   while scripts, the form, pop-ups and a click-started navigation still work.
 */
export type CreatorCodeIsolation = 'own-origin' | 'sandbox';

/** The isolation a deployment gives creators' code: a host of their own when the landing pages have one. */
export function creatorCodeIsolation(origins: { appOrigin: string; publicOrigin: string }): CreatorCodeIsolation {
  return origins.publicOrigin === origins.appOrigin ? 'sandbox' : 'own-origin';
}

export const SANDBOX_POLICY =
  'sandbox allow-scripts allow-forms allow-popups allow-popups-to-escape-sandbox allow-top-navigation-by-user-activation';

/** The "Page Not Found" document's policy: it has no script at all. */
export const NOT_FOUND_POLICY = "default-src 'none'; style-src 'unsafe-inline'; img-src 'self'; base-uri 'none'; form-action 'none'";

/** True when the page carries code its owner wrote or chose (only Pro owners' pages carry any). */
export function hasCreatorCode(page: Pick<PublicPageDto, 'customCodeSnippet' | 'googleAnalyticsId' | 'facebookPixelId'>): boolean {
  return Boolean(page.customCodeSnippet?.trim()) || trackingTags(page).length > 0;
}

const sha256 = (text: string) => `'sha256-${createHash('sha256').update(text, 'utf8').digest('base64')}'`;

/**
 * The Content-Security-Policy of a landing page, or null for none.
 * - Without creator code: only Plink's own inline scripts run (by their hashes, so a script slipped into the
 *   page's content never would), requests go to the page's own origin (the submit call, fonts), the form posts
 *   only there. Styles may be inline: the page's colours and fonts are inline style attributes, which a hash or
 *   nonce cannot cover, and CSS cannot run code. Images may come from anywhere (creators link them).
 * - With creator code: {@link SANDBOX_POLICY} on a shared host; nothing on a host of its own, as the creator's
 *   code may load whatever its vendors need.
 */
export function publicPagePolicy(hasCode: boolean, inlineScripts: string[], isolation: CreatorCodeIsolation): string | null {
  if (hasCode) return isolation === 'sandbox' ? SANDBOX_POLICY : null;
  const scripts = inlineScripts.length ? inlineScripts.map(sha256).join(' ') : "'none'";
  return (
    `default-src 'none'; script-src ${scripts}; style-src 'unsafe-inline'; img-src * data: blob:; font-src 'self'; ` +
    "connect-src 'self'; form-action 'self'; base-uri 'none'"
  );
}
