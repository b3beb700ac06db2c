import type { MailMessage } from '@plink/mail';
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

/** Where a user adds a card, cancels or resumes: Settings → Subscription ('Manage billing' opens Stripe's portal). */
function subscriptionSettings(appOrigin: string): string {
  return `${appOrigin}/settings?tab=subscription`;
}

/**
 * Pro started (an operator grant, a subscription, or the free trial), with its end when it has one. A
 * subscription's `until` is its renewal, not an end: `renews` says so.
 */
export function proStartedEmail(appOrigin: string, to: Recipient, until: Date | null, kind: 'plan' | 'trial' = 'plan'): MailMessage {
  const first =
    kind === 'trial' && until
      ? `Your free Pro trial has started. It ends on ${day(until)}; to stay on Pro after that, a card is needed (add one in Settings → Subscription if you did not at checkout).`
      : until
        ? `Your account is on the Pro plan until ${day(until)}.`
        : 'Your account is now on the Pro plan.';
  return renderActionEmail({
    to: to.email,
    subject: `Welcome to ${PRODUCT_NAME} Pro`,
    greeting: `Hi ${to.username},`,
    lines: [
      first,
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
 * About a week before the leads of a downgraded user's paused pages are removed (contact data goes
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

/** Stripe's reminder, 3 days before a trial ends: add a card to stay on Pro (or, with one, when it is charged). */
export function trialEndingEmail(appOrigin: string, to: Recipient, trialEnd: Date, cardOnFile: boolean): MailMessage {
  return renderActionEmail({
    to: to.email,
    subject: `Your ${PRODUCT_NAME} Pro trial ends in 3 days`,
    greeting: `Hi ${to.username},`,
    lines: cardOnFile
      ? [
          `Your free Pro trial ends on ${day(trialEnd)}.`,
          'Your subscription then continues on the card you added, at $10 a month. You can cancel anytime in Settings.',
        ]
      : [
          `Your free Pro trial ends on ${day(trialEnd)}.`,
          `To stay on Pro, add a card in Settings → Subscription ('Manage billing') before then. Without one, your account returns to the Free plan when the trial ends.`,
        ],
    action: { label: 'Open subscription settings', url: subscriptionSettings(appOrigin) },
    footer: `You receive this email because you started a Pro trial on ${PRODUCT_NAME}.`,
  });
}

/** A subscription payment failed: update the card through 'Manage billing' (the Billing Portal) in Settings. */
export function paymentFailedEmail(appOrigin: string, to: Recipient): MailMessage {
  return renderActionEmail({
    to: to.email,
    subject: `Your ${PRODUCT_NAME} Pro payment failed`,
    greeting: `Hi ${to.username},`,
    lines: [
      'We could not take the payment for your Pro subscription.',
      `Your pages keep their Pro features while the payment is retried over the next few days. Please update your card in Settings → Subscription ('Manage billing'); if every retry fails, your account returns to the Free plan.`,
    ],
    action: { label: 'Update your card', url: subscriptionSettings(appOrigin) },
    footer: `You receive this email because you have a Pro subscription on ${PRODUCT_NAME}.`,
  });
}
