import { renderDeliveryEmail, type JobPayload } from '@plink/contracts';
import type { MailMessage } from '@plink/mail';

/** An absolute link: `/uploads/…` paths are the product's own files. */
export function absoluteFileUrl(appOrigin: string, fileUrl: string): string {
  return fileUrl.startsWith('/') ? `${appOrigin}${fileUrl}` : fileUrl;
}

/**
 * The file a visitor signed up for, as the page's creator wrote it (see the `email.file-delivery` job): From the
 * creator's sender name at the install's own address, Reply-To the creator's, their subject and text (sanitised
 * by the pages service), the file button in the page's colour. The content is the one the editor previews
 * (renderDeliveryEmail). It carries nothing the visitor typed (their address is only the recipient).
 */
export function fileDeliveryEmail(appOrigin: string, job: Omit<JobPayload<'email.file-delivery'>, 'v' | 'leadId'>): MailMessage {
  const rendered = renderDeliveryEmail({
    pageTitle: job.page.title,
    fileUrl: absoluteFileUrl(appOrigin, job.page.fileUrl),
    subject: job.subject ?? null,
    bodyHtml: job.bodyHtml ?? null,
    buttonColor: job.buttonColor ?? '#000000',
    // Jobs from before the field: the branding they always had.
    branding: job.branding ?? true,
    senderName: job.senderName,
  });
  const fromName = job.senderName.replace(/\s+/g, ' ').trim();
  return {
    to: job.to,
    subject: job.test ? `[Test] ${rendered.subject}` : rendered.subject,
    text: rendered.text,
    html: rendered.html,
    ...(fromName && { fromName }),
    ...(job.replyTo && { replyTo: job.replyTo }),
  };
}
