import type { Font } from '@plink/contracts';

/**
 * Small, pure helpers shared by the component, the server document and the editor. Browser-safe:
 * no Node APIs, no randomness, no clock (the server render and the preview must draw the same).
 */

const SANS = 'system-ui,-apple-system,Segoe UI,Roboto,Helvetica,Arial,sans-serif';
const SERIF = 'Georgia,Times New Roman,serif';

/** Fallbacks per font: the page names the chosen family, the visitor's own fonts fill in. */
const FALLBACKS: Partial<Record<string, string>> = {
  Merriweather: SERIF,
  'Playfair Display': SERIF,
  'Times New Roman': 'Times,serif',
  Georgia: 'Times New Roman,serif',
  'Palatino Linotype': 'Palatino,Book Antiqua,Georgia,serif',
  'Courier New': 'Courier,monospace',
  'Lucida Console': 'Monaco,Courier New,monospace',
  Impact: 'Haettenschweiler,Arial Narrow Bold,sans-serif',
  Oswald: 'Impact,Arial Narrow Bold,sans-serif',
  Arial: 'Helvetica,sans-serif',
  Helvetica: 'Arial,sans-serif',
};

/**
 * A CSS font-family list for one of the font choices (FONTS): the family itself, then look-alikes the visitor
 * probably has, shown until a web font (see fonts.ts, self-hosted) arrives or when a system font is
 * missing. Family names are sequences of CSS identifiers, so they need no quotes.
 */
export function fontStack(font: Font | string | null | undefined): string {
  const name = String(font ?? '')
    .replace(/[^A-Za-z0-9 ]/g, '')
    .replace(/\s+/g, ' ')
    .trim();
  // A family name must not start with a digit when unquoted.
  if (!name || /(^|\s)\d/.test(name)) return SANS;
  return `${name},${FALLBACKS[name] ?? SANS}`;
}

/** `#rrggbb` or the fallback: colours are validated on save, this only keeps styles sane. */
export function safeColor(value: string | null | undefined, fallback: string): string {
  return typeof value === 'string' && /^#[0-9a-fA-F]{6}$/.test(value) ? value : fallback;
}

function luminance(hex: string): number {
  const channel = (i: number) => {
    const c = parseInt(hex.slice(i, i + 2), 16) / 255;
    return c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
  };
  return 0.2126 * channel(1) + 0.7152 * channel(3) + 0.0722 * channel(5);
}

/** Black or white, whichever contrasts more with the background (WCAG contrast ratio). */
export function contrastTextColor(background: string): '#000000' | '#ffffff' {
  const l = luminance(safeColor(background, '#000000'));
  const withWhite = 1.05 / (l + 0.05);
  const withBlack = (l + 0.05) / 0.05;
  return withBlack > withWhite ? '#000000' : '#ffffff';
}

/**
 * A URL the page may link to or load: absolute http(s), or a path on this site (`/uploads/…`).
 * Anything else (javascript:, data:, protocol-relative) gives null. Saved pages are validated
 * already; this also guards the editor preview, which draws unsaved input.
 */
export function safeUrl(value: string | null | undefined): string | null {
  if (typeof value !== 'string') return null;
  const v = value.trim();
  if (!v) return null;
  if (/^\/(?![/\\])/.test(v)) return v;
  return /^https?:\/\/[^\s/\\]/i.test(v) ? v : null;
}

/** A CSS `url("…")` value with the characters that could end the string escaped. */
export function cssUrl(url: string): string {
  return `url("${url.replace(/[\\"\n\r\f]/g, (c) => `\\${c.charCodeAt(0).toString(16)} `)}")`;
}

/** The thank-you button shows only when both its text and its URL are set. */
export function thankYouButton(page: {
  thankYouButtonText: string | null;
  thankYouButtonUrl: string | null;
}): { text: string; url: string } | null {
  const text = page.thankYouButtonText?.trim();
  const url = safeUrl(page.thankYouButtonUrl);
  return text && url ? { text: page.thankYouButtonText as string, url } : null;
}
