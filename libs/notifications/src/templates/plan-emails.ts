import type { MailMessage } from '@plink/platform';
import { PRODUCT_NAME, renderActionEmail } from './layout';

interface Recipient {
  email: string;
  username: string;
}

/** "12 December 2026" (UTC): a date, not a time, in the e-mail. */
function day(date: Date): string {
  return date.toLocaleDateString('en-GB', { day: 'numeric', month: 'long', year: 'numeric', timeZone: 'UTC' });
}

/** Pro started (an operator grant now; a subscription or trial later), with its end when it has one. */
export function proStartedEmail(appOrigin: string, to: Recipient, until: Date | null): MailMessage {
  return renderActionEmail({
    to: to.email,
    subject: `Welcome to ${PRODUCT_NAME} Pro`,
    greeting: `Hi ${to.username},`,
    lines: [
      until ? `Your account is on the Pro plan until ${day(until)}.` : 'Your account is now on the Pro plan.',
      'You can now create as many pages as you like, remove the branding, send new leads to a webhook, and add custom code and tracking to your pages.',
    ],
    action: { label: 'Open your dashboard', url: `${appOrigin}/dashboard` },
    footer: `You receive this email because the plan of your ${PRODUCT_NAME} account changed.`,
  });
}

/** Pro ended (revoked, expired; later: the subscription ended). */
export function proEndedEmail(appOrigin: string, to: Recipient): MailMessage {
  return renderActionEmail({
    to: to.email,
    subject: `Your ${PRODUCT_NAME} Pro plan has ended`,
    greeting: `Hi ${to.username},`,
    lines: [
      'Your account is back on the Free plan.',
      `Your pages stay online and keep collecting leads, now with the ${PRODUCT_NAME} branding; webhooks, custom code and tracking are no longer run.`,
    ],
    action: { label: 'Open your dashboard', url: `${appOrigin}/dashboard` },
    footer: `You receive this email because the plan of your ${PRODUCT_NAME} account changed.`,
  });
}
