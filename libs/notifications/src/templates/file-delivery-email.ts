import type { MailMessage } from '@plink/mail';
import { PRODUCT_NAME, renderActionEmail } from './layout';

export interface DeliveredPage {
  /** The creator's page title (may be empty). */
  title: string;
  /** The file link: absolute, or the product's own `/uploads/…` path. */
  fileUrl: string;
}

/** Creator-written text on one line, for a subject or a sentence. */
function oneLine(text: string, max = 150): string {
  const line = text.replace(/\s+/g, ' ').trim();
  return line.length > max ? `${line.slice(0, max - 1)}…` : line;
}

/** An absolute link: `/uploads/…` paths are the product's own files. */
export function absoluteFileUrl(appOrigin: string, fileUrl: string): string {
  return fileUrl.startsWith('/') ? `${appOrigin}${fileUrl}` : fileUrl;
}

/**
 * The file a visitor signed up for. It carries the page's title and file link, and nothing the
 * visitor typed (the address is only the recipient).
 */
export function fileDeliveryEmail(appOrigin: string, to: string, page: DeliveredPage): MailMessage {
  const title = oneLine(page.title);
  return renderActionEmail({
    to,
    subject: title ? `Your download: ${title}` : `Your download from ${PRODUCT_NAME}`,
    greeting: 'Hi there,',
    lines: [
      title
        ? `Thanks for signing up on “${title}”. Here is the file you asked for.`
        : 'Thanks for signing up. Here is the file you asked for.',
    ],
    action: { label: 'Download file', url: absoluteFileUrl(appOrigin, page.fileUrl) },
    footer: `You received this email because this address was entered on a ${PRODUCT_NAME} page. If that was not you, you can ignore this email.`,
  });
}
