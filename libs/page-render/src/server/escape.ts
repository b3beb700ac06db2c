const HTML_ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };

/** Escapes text for HTML text and for double- or single-quoted attribute values. */
export function escapeHtml(value: string): string {
  return value.replace(/[&<>"']/g, (c) => HTML_ESCAPES[c]);
}

/**
 * JSON that is safe inside an inline <script>: `<`, `>` and `&` become \u escapes (no `</script>`,
 * no `<!--`), and so do U+2028/U+2029 (line terminators in old JavaScript engines).
 * `undefined` (e.g. a missing value) becomes `null`.
 */
export function scriptJson(value: unknown): string {
  return (JSON.stringify(value) ?? 'null').replace(
    /[<>&\u2028\u2029]/g,
    (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`,
  );
}

// The plain-text helpers live beside the component: the sharing card needs them in the browser too.
export { htmlToText, truncate } from '../components/text';
