import sanitizeHtml from 'sanitize-html';

/**
 * The rich-text toolbar of SPEC §2 (header levels 1–2, bold, italic, underline, lists, links, inline images),
 * and nothing else: every other tag is dropped (its text kept, except for script-like containers, whose
 * content goes too) and every attribute but `a[href]` and `img[src]` is removed.
 */
const ALLOWED_TAGS = ['h1', 'h2', 'p', 'br', 'strong', 'b', 'em', 'i', 'u', 'ol', 'ul', 'li', 'a', 'img'];

/** Containers whose content is never text a reader should see (dropped whole, not unwrapped). */
const NON_TEXT_TAGS = [
  'script', 'style', 'textarea', 'option', 'select', 'noscript', 'template', 'svg', 'math', 'iframe', 'object', 'embed',
  'title', 'head', 'xmp', 'noembed', 'noframes', 'plaintext',
];

/** Links: only these schemes. Anything else (javascript:, data:, vbscript:, relative paths…) loses its href. */
const LINK_HREF = /^(?:https?:\/\/[^\s/?#]+|mailto:|tel:)/i;

/** Images: http(s), or inline data of the SPEC's types (png, gif, jpeg, bmp, x-icon) in base64. */
const IMAGE_SRC = /^(?:https?:\/\/[^\s/?#]+\S*|data:image\/(?:png|gif|jpeg|bmp|x-icon);base64,[A-Za-z0-9+/]+={0,2})$/i;

/** Tags that make a text HTML with its own paragraphs; without any, the text is split into paragraphs here. */
const BLOCK_TAG = /<\/?(?:p|h[1-6]|ol|ul|li|br|div|blockquote|pre|table|section|article|header|footer|hr)\b/i;
const ANY_TAG = /<\/?[a-z][^>]*>/i;

/** Browsers ignore tabs, newlines and leading control characters in a URL; so does the check. */
function cleanUrl(value: string | undefined): string {
  // eslint-disable-next-line no-control-regex
  return (value ?? '').replace(/[\u0000-\u0020\u007f-\u009f]+/g, '');
}

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
 * Text without block tags as SPEC shows it: blank lines separate paragraphs, single newlines are line breaks.
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
