import type { JobPayload } from '@plink/contracts';
import type { MailMessage } from '@plink/mail';
import { renderActionEmail } from './layout';

/** The confirmation link of a double opt-in sign-up: `{PUBLIC_ORIGIN}/confirm/{token}` (the landing pages' host). */
export function confirmUrl(publicOrigin: string, token: string): string {
  return `${publicOrigin.replace(/\/+$/, '')}/confirm/${encodeURIComponent(token)}`;
}

/**
 * The e-mail that asks a visitor to confirm their sign-up on a double opt-in page (see the
 * `email.lead-confirmation` job): the page's title, the creator's name (From: that name at the install's own
 * address; Reply-To the creator's), one Confirm button, in text and HTML. The reminder says it is one. It
 * carries nothing the visitor typed (their address is only the recipient).
 */
export function leadConfirmationEmail(publicOrigin: string, job: Omit<JobPayload<'email.lead-confirmation'>, 'v' | 'leadId' | 'sealedToken'>, token: string): MailMessage {
  const title = job.page.title.replace(/\s+/g, ' ').trim();
  const creator = job.senderName.replace(/\s+/g, ' ').trim();
  const what = title ? `“${title}”` : 'this page';
  const from = creator ? ` from ${creator}` : '';
  const mail = renderActionEmail({
    to: job.to,
    subject: job.reminder ? `Reminder: please confirm your e-mail${title ? ` for ${title}` : ''}` : `Please confirm your e-mail${title ? ` for ${title}` : ''}`,
    greeting: 'Hello,',
    lines: [
      job.reminder
        ? `You signed up for ${what}${from} two days ago, but your e-mail address is not confirmed yet.`
        : `Thanks for signing up for ${what}${from}.`,
      'Please press the button below to confirm your e-mail address.',
    ],
    action: { label: 'Confirm', url: confirmUrl(publicOrigin, token) },
    footer: 'If you did not sign up, ignore this e-mail: without a confirmation, your address is removed within 7 days.',
  });
  return { ...mail, ...(creator && { fromName: creator }), ...(job.replyTo && { replyTo: job.replyTo }) };
}
