import type { MailMessage } from '@plink/platform';
import { PRODUCT_NAME, renderActionEmail } from './layout';

/** Days after the downgrade before the leads of paused pages go (billing's LEAD_REMOVAL_DAYS, said in the e-mail). */
const LEAD_REMOVAL_DAYS = 30;

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
      `Your pages now show the ${PRODUCT_NAME} branding; webhooks, custom code and tracking are no longer run.`,
      'The Free plan keeps one page live: your oldest page stays online and keeps collecting leads, and any other pages are paused (you can choose which page stays live on your dashboard).',
      `The e-mail addresses collected by paused pages are removed ${LEAD_REMOVAL_DAYS} days after the downgrade; export them from your dashboard before then, or upgrade to Pro again to keep them.`,
    ],
    action: { label: 'Open your dashboard', url: `${appOrigin}/dashboard` },
    footer: `You receive this email because the plan of your ${PRODUCT_NAME} account changed.`,
  });
}

/**
 * About a week before the leads of a downgraded user's paused pages are removed (SPEC §4: contact data goes
 * 30 days after the downgrade): when, where to export them, and that Pro keeps them.
 */
export function leadRemovalWarningEmail(appOrigin: string, to: Recipient, removalAt: Date): MailMessage {
  return renderActionEmail({
    to: to.email,
    subject: `Leads of your paused ${PRODUCT_NAME} pages will be removed on ${day(removalAt)}`,
    greeting: `Hi ${to.username},`,
    lines: [
      `The e-mail addresses collected by your paused pages will be removed on ${day(removalAt)}.`,
      `Export them from your dashboard: ${appOrigin}/dashboard (Download Leads on each page).`,
      'Upgrading to Pro keeps them, and brings your paused pages back online.',
    ],
    action: { label: 'Export your leads', url: `${appOrigin}/dashboard` },
    footer: `You receive this email because your ${PRODUCT_NAME} Pro plan ended and some of your pages are paused.`,
  });
}
