import { z } from 'zod';

// In the browser, zod's fast object parsers would be compiled with `new Function`, which the app's
// Content-Security-Policy (`script-src 'self'`) refuses: zod only probes for it and falls back, but the probe
// is reported as a CSP violation on every screen. Interpreted parsing is plenty for forms. This module is the
// first of the contracts to build a schema (every schema module imports it), so the setting comes first.
if ('document' in globalThis) z.config({ jitless: true });

/**
 * Characters no text field takes. Control characters (C0 and DEL) are never typed by a person, break
 * logs, headers and e-mails, and NUL is refused by PostgreSQL itself; a lone UTF-16 surrogate is not a
 * character at all (it would be stored as U+FFFD, silently changed). With the `u` flag a well-formed pair
 * is one code point, outside the surrogate range, so only unpaired halves match.
 *
 * Single-line fields (titles, names, e-mail addresses, URLs, tokens, passwords) refuse every one of them;
 * multi-line fields (rich text, paragraphs, custom code) keep tab, line feed and carriage return.
 */
// eslint-disable-next-line no-control-regex -- finding control characters is the point
const NOT_IN_SINGLE_LINE = /[\u0000-\u001f\u007f\ud800-\udfff]/u;
// eslint-disable-next-line no-control-regex -- as above
const NOT_IN_MULTI_LINE = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f\ud800-\udfff]/u;

/** The message for a field holding such characters: `Title contains characters that are not allowed.` */
export function notAllowedCharactersMessage(label: string): string {
  return `${label} contains characters that are not allowed.`;
}

/** True when `value` holds a character the field may not take. */
export function hasForbiddenCharacters(value: string, multiline = false): boolean {
  return (multiline ? NOT_IN_MULTI_LINE : NOT_IN_SINGLE_LINE).test(value);
}

/**
 * A string schema whose text may hold no control characters (see above), answered with
 * {@link notAllowedCharactersMessage} naming the field. Add the field's other checks after it, e.g.
 * `plainText('Title').max(200)`; for a trimmed field `plainText('Email', { trim: true })` trims first, so
 * surrounding white space (a pasted address with a line break) is forgiven rather than refused.
 */
export function plainText(label: string, options: { multiline?: boolean; trim?: boolean; error?: string } = {}) {
  const base = z.string(options.error === undefined ? undefined : { error: options.error });
  const trimmed = options.trim ? base.trim() : base;
  return trimmed.refine((v) => !hasForbiddenCharacters(v, options.multiline), {
    error: notAllowedCharactersMessage(label),
    // Later checks (length, format) would only repeat the complaint with a vaguer message.
    abort: true,
  });
}
