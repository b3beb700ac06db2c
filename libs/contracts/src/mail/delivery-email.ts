/**
 * The file-delivery e-mail a visitor gets (subject, HTML and plain text), rendered by one pure function that
 * the notifications worker sends and the editor's live preview shows: what a creator previews is what their
 * visitors receive. No Node or DOM API here (the SPA bundles this file).
 */
import { DeliveryEmailTexts } from '../http/pages';

const PRODUCT_NAME = 'Plink';

export interface DeliveryEmailContent {
  /** The page's title (may be empty). */
  pageTitle: string;
  /** The file link, absolute. */
  fileUrl: string;
  /** The creator's own subject; null or blank: the standard one. */
  subject: string | null;
  /** The creator's own text, rich text already sanitised by the pages service; null or blank: the standard one. */
  bodyHtml: string | null;
  /** The page's button colour (#rrggbb). */
  buttonColor: string;
  /** The page carries Plink's branding (Free, or Pro with branding on): a small "Sent via Plink" line. */
  branding: boolean;
  /** Who signs the standard text (the sender name). */
  senderName: string;
}

export interface RenderedDeliveryEmail {
  subject: string;
  html: string;
  text: string;
}

function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);
}

/** Creator-written text on one line, for a subject or a sentence. */
function oneLine(text: string, max = 150): string {
  const line = text.replace(/\s+/g, ' ').trim();
  return line.length > max ? `${line.slice(0, max - 1)}…` : line;
}

/** Black or white, whichever reads better on `hex` (WCAG relative luminance). */
export function contrastingTextColor(hex: string): '#000000' | '#ffffff' {
  const m = /^#([0-9a-f]{2})([0-9a-f]{2})([0-9a-f]{2})$/i.exec(hex);
  if (!m) return '#ffffff';
  const [r, g, b] = m.slice(1).map((part) => {
    const c = parseInt(part, 16) / 255;
    return c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
  }) as [number, number, number];
  const luminance = 0.2126 * r + 0.7152 * g + 0.0722 * b;
  // Contrast with black (L + 0.05) / 0.05 against white 1.05 / (L + 0.05): equal at L ≈ 0.179.
  return luminance > 0.179 ? '#000000' : '#ffffff';
}

const ENTITIES: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', '#39': "'", apos: "'", nbsp: ' ' };

function decodeEntities(text: string): string {
  return text.replace(/&(#x[0-9a-f]+|#\d+|[a-z0-9]+);/gi, (whole, name: string) => {
    const lower = name.toLowerCase();
    if (lower in ENTITIES) return ENTITIES[lower]!;
    if (lower.startsWith('#x')) return String.fromCodePoint(parseInt(lower.slice(2), 16));
    if (lower.startsWith('#')) return String.fromCodePoint(parseInt(lower.slice(1), 10));
    return whole;
  });
}

/**
 * The plain-text part of sanitised rich text (the page text's allowlist: paragraphs, headings, lists, links,
 * breaks, images): paragraphs as blank-line separated blocks, list items as "- ", links as "text (url)" (the
 * url alone when it is the text), images left out.
 */
export function richTextToPlainText(html: string): string {
  const text = html
    .replace(/<a\b[^>]*?href="([^"]*)"[^>]*>([\s\S]*?)<\/a>/gi, (_, href: string, inner: string) => {
      const url = decodeEntities(href);
      const label = decodeEntities(inner.replace(/<[^>]*>/g, '')).trim();
      return !label || label === url ? url : `${label} (${url})`;
    })
    .replace(/<br\s*\/?>/gi, '\n')
    .replace(/<li\b[^>]*>/gi, '\n- ')
    .replace(/<\/(?:p|h1|h2|ol|ul)>/gi, '\n\n')
    .replace(/<img\b[^>]*>/gi, '')
    .replace(/<[^>]*>/g, '');
  return decodeEntities(text)
    .split('\n')
    .map((line) => line.replace(/[ \t]+/g, ' ').trim())
    .join('\n')
    .replace(/\n{3,}/g, '\n\n')
    .trim();
}

const blank = (value: string | null | undefined) => !value || !value.replace(/<[^>]*>|&nbsp;|\s/g, '');

/** The subject the e-mail goes out with: the creator's, else the standard one. */
export function deliveryEmailSubject(content: Pick<DeliveryEmailContent, 'subject' | 'pageTitle'>): string {
  if (content.subject && content.subject.trim()) return oneLine(content.subject, 200);
  const title = oneLine(content.pageTitle);
  return title ? `Your download: ${title}` : `Your download from ${PRODUCT_NAME}`;
}

/**
 * The delivery e-mail. The creator's own text replaces the standard greeting, sentence and signature; the
 * file button follows it, in the page's button colour with a text colour that reads on it, with the link
 * spelled out beneath for clients that hide buttons.
 */
export function renderDeliveryEmail(content: DeliveryEmailContent): RenderedDeliveryEmail {
  const title = oneLine(content.pageTitle);
  const own = !blank(content.bodyHtml);
  const standardLines = [
    'Hi there,',
    title ? `Thanks for signing up on “${title}”. Here is the file you asked for.` : 'Thanks for signing up. Here is the file you asked for.',
  ];
  const signature = oneLine(content.senderName, 100);
  const bodyHtml = own
    ? content.bodyHtml!
    : standardLines.map((line) => `<p style="margin:0 0 16px">${escapeHtml(line)}</p>`).join('');
  const bodyText = own ? richTextToPlainText(content.bodyHtml!) : standardLines.join('\n\n');
  const label = DeliveryEmailTexts.buttonLabel;
  const url = content.fileUrl;
  const notice = 'You received this email because this address was entered on a page to get this file. If that was not you, you can ignore this email.';
  const background = /^#[0-9a-f]{6}$/i.test(content.buttonColor) ? content.buttonColor : '#000000';
  const foreground = contrastingTextColor(background);

  const text = [
    bodyText,
    '',
    `${label}: ${url}`,
    ...(own || !signature ? [] : ['', `— ${signature}`]),
    '',
    notice,
    ...(content.branding ? ['', `Sent via ${PRODUCT_NAME}`] : []),
  ].join('\n');

  const html = `<!doctype html>
<html><body style="margin:0;padding:24px;background:#f4f4f5;font-family:Arial,Helvetica,sans-serif;color:#18181b">
<table role="presentation" width="100%" cellspacing="0" cellpadding="0"><tr><td align="center">
<table role="presentation" width="100%" style="max-width:520px;background:#ffffff;border-radius:8px;padding:32px" cellspacing="0" cellpadding="0"><tr><td style="font-size:15px;line-height:1.5">
${bodyHtml}
<p style="margin:24px 0"><a href="${escapeHtml(url)}" data-file-button style="background:${background};color:${foreground};padding:12px 20px;border-radius:6px;text-decoration:none;display:inline-block;font-weight:bold">${escapeHtml(label)}</a></p>
${own || !signature ? '' : `<p style="margin:0 0 16px">— ${escapeHtml(signature)}</p>`}
<p style="margin:0 0 16px;font-size:13px;color:#52525b">If the button does not work, copy this link into your browser:<br><a href="${escapeHtml(url)}">${escapeHtml(url)}</a></p>
<p style="margin:0;font-size:13px;color:#52525b">${escapeHtml(notice)}</p>
</td></tr></table>
${content.branding ? `<p style="font-size:12px;color:#a1a1aa">Sent via ${PRODUCT_NAME}</p>` : ''}
</td></tr></table>
</body></html>`;
  return { subject: deliveryEmailSubject(content), html, text };
}
