import type { MailMessage } from '@plink/mail';
import { PRODUCT_NAME, renderActionEmail } from './layout';

interface Recipient {
  email: string;
  username: string;
}

const REASONS = {
  gone: 'its receiver answered "410 Gone", which means the endpoint no longer exists',
  failing: 'every delivery to it failed for 24 hours',
  exhausted: 'three new leads in a row could not be delivered to it, after every retry',
} as const;

/** A page's webhook was turned off by Plink: why, and where to turn it back on. */
export function webhookDisabledEmail(
  appOrigin: string,
  to: Recipient,
  page: { id: number; title: string; url: string | null },
  reason: keyof typeof REASONS,
): MailMessage {
  const name = page.title.trim() || 'your page';
  return renderActionEmail({
    to: to.email,
    subject: `Webhook turned off for ${name}`,
    greeting: `Hi ${to.username},`,
    lines: [
      `We turned off the webhook of "${name}"${page.url ? ` (${page.url})` : ''} because ${REASONS[reason]}.`,
      'New leads are still collected and kept, but they are not sent to your webhook until you turn it back on. Fix the receiver, then open the page in the editor, Settings tab, and click Re-enable; you can redeliver past messages from its Deliveries panel.',
    ],
    action: { label: 'Open the page settings', url: `${appOrigin}/editor/${page.id}` },
    footer: `You receive this email because you own a ${PRODUCT_NAME} page with a webhook.`,
  });
}

/** A page switched itself to confirm-by-e-mail (bot sign-ups): until when, and how to end it. */
export function pageUnderAttackEmail(appOrigin: string, to: Recipient, page: { id: number; title: string }, until: Date): MailMessage {
  const name = page.title.trim() || 'your page';
  return renderActionEmail({
    to: to.email,
    subject: `Your page ${name} is receiving bot sign-ups`,
    greeting: `Hi ${to.username},`,
    lines: [
      `"${name}" is receiving sign-ups far above its usual rate, or many refused ones: most likely a script. To keep fake addresses out of your leads, confirm-by-e-mail is on for 24 hours (until ${until.toUTCString()}): new visitors get an e-mail with a Confirm button, and only confirmed addresses become leads and get your file.`,
      'Nothing else changes. If these sign-ups are real (you shared the page widely), open the page in the editor, Settings tab, and click "End confirm-by-e-mail".',
    ],
    action: { label: 'Open the page settings', url: `${appOrigin}/editor/${page.id}` },
    footer: `You receive this email because you own a ${PRODUCT_NAME} page.`,
  });
}
