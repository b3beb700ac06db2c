import type { MailMessage } from '@plink/mail';

export const PRODUCT_NAME = 'Plink';

export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);
}

export interface ActionEmail {
  to: string;
  subject: string;
  greeting: string;
  lines: string[];
  action: { label: string; url: string };
  footer: string;
}

/** One e-mail with a call to action, as plain text and as HTML (both carry the same absolute link). */
export function renderActionEmail(mail: ActionEmail): MailMessage {
  const text = [
    mail.greeting,
    '',
    ...mail.lines,
    '',
    `${mail.action.label}: ${mail.action.url}`,
    '',
    mail.footer,
    '',
    `— The ${PRODUCT_NAME} team`,
  ].join('\n');

  const paragraphs = mail.lines.map((l) => `<p style="margin:0 0 16px">${escapeHtml(l)}</p>`).join('');
  const html = `<!doctype html>
<html><body style="margin:0;padding:24px;background:#f4f4f5;font-family:Arial,Helvetica,sans-serif;color:#18181b">
<table role="presentation" width="100%" cellspacing="0" cellpadding="0"><tr><td align="center">
<table role="presentation" width="100%" style="max-width:520px;background:#ffffff;border-radius:8px;padding:32px" cellspacing="0" cellpadding="0"><tr><td>
<h1 style="margin:0 0 24px;font-size:22px">${PRODUCT_NAME}</h1>
<p style="margin:0 0 16px">${escapeHtml(mail.greeting)}</p>
${paragraphs}
<p style="margin:24px 0"><a href="${escapeHtml(mail.action.url)}" style="background:#000000;color:#ffffff;padding:12px 20px;border-radius:6px;text-decoration:none;display:inline-block">${escapeHtml(mail.action.label)}</a></p>
<p style="margin:0 0 16px;font-size:13px;color:#52525b">If the button does not work, copy this link into your browser:<br><a href="${escapeHtml(mail.action.url)}">${escapeHtml(mail.action.url)}</a></p>
<p style="margin:0;font-size:13px;color:#52525b">${escapeHtml(mail.footer)}</p>
</td></tr></table>
<p style="font-size:12px;color:#a1a1aa">— The ${PRODUCT_NAME} team</p>
</td></tr></table>
</body></html>`;
  return { to: mail.to, subject: mail.subject, text, html };
}
