/**
 * The form on another site (`embed.js`): what the script loads, the snippets the editor hands out, and the
 * texts both use. Zod-free, so the SPA's editor can import it without the schemas.
 */

/** Where the gateway serves the embed script, short-cached (a fix reaches visitors within 10 minutes). */
export const EMBED_SCRIPT_PATH = '/embed.js';
/** The versioned, immutable copies: `/embed/{hash}.js`. */
export const EMBED_VERSIONED_DIR = '/embed';
/** How long browsers keep `/embed.js`, in seconds. */
export const EMBED_SCRIPT_MAX_AGE_S = 600;
/** The embed's gzipped size budget, in bytes (the web build fails past it; the gateway's test checks what it serves). */
export const EMBED_GZIP_BUDGET_BYTES = 5_120;

/** The hidden field of the plain-HTML form that marks a post from another site (always confirmed by e-mail). */
export const EMBED_FORM_FIELD = 'embed';
export const EMBED_FORM_VALUE = 'html';
/** The source value an embedded sign-up and view are counted under (`utm_source`). */
export const EMBED_SOURCE = 'embed';

/** Texts the script shows (sent with the page, so the script carries none). */
export const EmbedTexts = {
  close: 'Close',
  dialogLabel: 'Sign up',
  emailPlaceholder: 'Enter your email',
  emailLabel: 'Email address',
  submitting: 'Submitting...',
  redirecting: 'Redirecting you shortly...',
  failed: 'Failed to submit: ',
  madeWith: 'Made with Plink',
} as const;

/** What `GET /api/embed/{slug}` answers: the page's form as the script draws it, and a fresh form token. */
export interface EmbedPageDto {
  /** The page's headline (may be empty). */
  title: string;
  /** The page's description as plain text (its rich text's words; no markup leaves the server). */
  subtext: string;
  buttonText: string;
  /** `#rrggbb`: the button, and the black or white text that reads on it. */
  buttonColor: string;
  buttonTextColor: string;
  /** The page's background colour, drawn around the form. */
  backgroundColor: string;
  /** CSS font-family lists of the headline and of the body (form, messages). */
  titleFont: string;
  titleWeight: number;
  bodyFont: string;
  /** `@font-face` rules of the page's web fonts under embed-only family names ('' for system fonts). */
  fontCss: string;
  sharp: boolean;
  shadow: boolean;
  center: boolean;
  /** The consent checkbox's label (its link absolute), or null when the page shows none. */
  consent: { before: string; linkText: string; url: string } | null;
  /** Whether the 'Made with Plink' badge shows (a Free owner's page), and where it links. */
  badge: string | null;
  /** The signed form token the submission sends back (see the bot shield). */
  formToken: string;
  /** Where the script POSTs the JSON submission, and where it reports a shown form. */
  submitUrl: string;
  viewUrl: string;
  texts: { [K in keyof typeof EmbedTexts | 'invalidEmail' | 'consentRequired']: string };
}

/** What the plain-HTML form shows of the page: its button and, unless hidden, its consent checkbox. */
export interface EmbedFormFields {
  buttonText: string;
  /** The consent label's words before the link and the link's words (null: the page shows no checkbox). */
  consent: { before: string; linkText: string; privacyHref: string } | null;
}

const escapeHtml = (s: string) => s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

/** The snippets the editor's "Embed on your site" hands out for a page, with `origin` its PUBLIC_ORIGIN. */
export function embedSnippets(origin: string, slug: string, form: EmbedFormFields) {
  const tag = (extra: string) => `<script async src="${origin}${EMBED_SCRIPT_PATH}" data-plink-page="${escapeHtml(slug)}"${extra}></script>`;
  const consent = form.consent
    ? `\n  <label><input type="checkbox" name="consent" value="on" required> ${escapeHtml(form.consent.before)}` +
      `<a href="${origin}${form.consent.privacyHref}">${escapeHtml(form.consent.linkText)}</a></label>`
    : '';
  return {
    inline: tag(''),
    popup: tag(' data-mode="popup" data-trigger="delay:10"'),
    slideIn: tag(' data-mode="slide-in" data-trigger="scroll:50"'),
    html:
      `<form method="post" action="${origin}/${escapeHtml(slug)}">\n` +
      `  <input type="email" name="email" required placeholder="${EmbedTexts.emailPlaceholder}" aria-label="${EmbedTexts.emailLabel}">` +
      consent +
      `\n  <input type="hidden" name="${EMBED_FORM_FIELD}" value="${EMBED_FORM_VALUE}">` +
      `\n  <button type="submit">${escapeHtml(form.buttonText)}</button>\n</form>`,
  };
}
