/**
 * The rich text of a page (its subtext): what the editor's toolbar makes and nothing else. The pages service
 * sanitises every saved text to this allowlist; the editor cleans pasted HTML to the same one, so
 * what a creator pastes is what visitors will see.
 */

/** Header levels 1-2, bold, italic, underline, lists, links, inline images, paragraphs and breaks. */
export const RICH_TEXT_TAGS = ['h1', 'h2', 'p', 'br', 'strong', 'b', 'em', 'i', 'u', 'ol', 'ul', 'li', 'a', 'img'] as const;

/** Containers whose content is never text a reader should see (dropped whole, not unwrapped). */
export const RICH_TEXT_NON_TEXT_TAGS = [
  'script', 'style', 'textarea', 'option', 'select', 'noscript', 'template', 'svg', 'math', 'iframe', 'object', 'embed',
  'title', 'head', 'xmp', 'noembed', 'noframes', 'plaintext',
] as const;

/** Links: only http, https, mailto and tel. Anything else (javascript:, data:, relative paths…) loses its href. */
export const RICH_TEXT_LINK_HREF = /^(?:https?:\/\/[^\s/?#]+|mailto:|tel:)/i;

/** Images: http(s), or inline data in base64 of the types a creator may paste (png, gif, jpeg, bmp, x-icon). */
export const RICH_TEXT_IMAGE_SRC = /^(?:https?:\/\/[^\s/?#]+\S*|data:image\/(?:png|gif|jpeg|bmp|x-icon);base64,[A-Za-z0-9+/]+={0,2})$/i;

/** Browsers ignore tabs, newlines and control characters in a URL; so do the checks. */
export function cleanRichTextUrl(value: string | null | undefined): string {
  // eslint-disable-next-line no-control-regex
  return (value ?? '').replace(/[\u0000-\u0020\u007f-\u009f]+/g, '');
}
