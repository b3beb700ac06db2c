import sanitizeHtml from 'sanitize-html';
import {
  RICH_TEXT_IMAGE_SRC,
  RICH_TEXT_LINK_HREF,
  RICH_TEXT_NON_TEXT_TAGS,
  RICH_TEXT_TAGS,
  cleanRichTextUrl,
} from '@plink/contracts';

/**
 * What the editor's rich-text toolbar makes (header levels 1–2, bold, italic, underline, lists, links, inline images),
 * and nothing else (the allowlist lives in @plink/contracts, shared with the editor's paste cleaning): every
 * other tag is dropped (its text kept, except for script-like containers, whose content goes too) and every
 * attribute but `a[href]` and `img[src]` is removed.
 */
const ALLOWED_TAGS: string[] = [...RICH_TEXT_TAGS];
const NON_TEXT_TAGS: string[] = [...RICH_TEXT_NON_TEXT_TAGS];
const LINK_HREF = RICH_TEXT_LINK_HREF;
const IMAGE_SRC = RICH_TEXT_IMAGE_SRC;
const cleanUrl = cleanRichTextUrl;

/** Tags that make a text HTML with its own paragraphs; without any, the text is split into paragraphs here. */
const BLOCK_TAG = /<\/?(?:p|h[1-6]|ol|ul|li|br|div|blockquote|pre|table|section|article|header|footer|hr)\b/i;
const ANY_TAG = /<\/?[a-z][^>]*>/i;

const OPTIONS: sanitizeHtml.IOptions = {
  allowedTags: ALLOWED_TAGS,
  allowedAttributes: { a: ['href', 'rel', 'target'], img: ['src'] },
  allowedSchemes: ['http', 'https', 'mailto', 'tel'],
  allowedSchemesByTag: { img: ['http', 'https', 'data'] },
  allowedSchemesAppliedToAttributes: ['href', 'src'],
  allowProtocolRelative: false,
  disallowedTagsMode: 'discard',
  nonTextTags: NON_TEXT_TAGS,
  parseStyleAttributes: false,
  enforceHtmlBoundary: false,
  transformTags: {
    a: (tagName, attribs) => {
      const href = cleanUrl(attribs.href);
      // Only the allowed schemes survive; the link text stays either way. Creator content: no SEO credit,
      // no access to the page through window.opener.
      const kept: Record<string, string> = LINK_HREF.test(href) ? { href, rel: 'nofollow noopener noreferrer', target: '_blank' } : {};
      return { tagName, attribs: kept };
    },
    img: (tagName, attribs) => {
      const src = cleanUrl(attribs.src);
      const kept: Record<string, string> = IMAGE_SRC.test(src) ? { src } : {};
      return { tagName, attribs: kept };
    },
    b: 'strong',
    i: 'em',
  },
  // An image without an allowed source is dropped entirely.
  exclusiveFilter: (frame) => frame.tag === 'img' && !frame.attribs.src,
};

function escapeHtml(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;').replace(/'/g, '&#39;');
}

/**
 * Text without block tags is shown as paragraphs: blank lines separate them, single newlines are line breaks.
 * Plain text is escaped first (what the creator typed is shown, not interpreted).
 */
function paragraphsOf(text: string, escape: boolean): string {
  return text
    .split(/\n[ \t]*\n+/)
    .map((block) => block.trim())
    .filter((block) => block !== '')
    .map((block) => `<p>${block.split('\n').map((line) => (escape ? escapeHtml(line) : line)).join('<br>')}</p>`)
    .join('');
}

/**
 * The stored form of a page's `subtext`: safe HTML limited to the toolbar's tags, or null when nothing
 * visible is left. Runs on every save; the public page then prints it as it is.
 */
export function sanitizeRichText(input: string | null | undefined): string | null {
  if (input === null || input === undefined) return null;
  const text = input.replace(/\r\n?/g, '\n');
  if (text.trim() === '') return null;
  const html = BLOCK_TAG.test(text) ? text : paragraphsOf(text, !ANY_TAG.test(text));
  const clean = sanitizeHtml(html, OPTIONS).trim();
  const visible = clean.replace(/<(?:p|h1|h2|strong|em|u|ol|ul|li|a)(?:\s[^>]*)?>|<\/[a-z0-9]+>|<br\s*\/?>|&nbsp;|\s/gi, '');
  return visible === '' ? null : clean;
}
