import type { MailMessage } from '@plink/mail';
import { PRODUCT_NAME, renderActionEmail } from './layout';

interface Recipient {
  email: string;
  username: string;
}

function link(appOrigin: string, path: string, token: string): string {
  return `${appOrigin}${path}?token=${encodeURIComponent(token)}`;
}

export function verificationEmail(appOrigin: string, to: Recipient, token: string): MailMessage {
  return renderActionEmail({
    to: to.email,
    subject: `Verify your email for ${PRODUCT_NAME}`,
    greeting: `Hi ${to.username},`,
    lines: [`Welcome to ${PRODUCT_NAME}! Please confirm that this is your email address to start building landing pages.`],
    action: { label: 'Verify email', url: link(appOrigin, '/verify-email', token) },
    footer: `This link is valid for 24 hours. If you did not create a ${PRODUCT_NAME} account, you can ignore this email.`,
  });
}

export function passwordResetEmail(appOrigin: string, to: Recipient, token: string): MailMessage {
  return renderActionEmail({
    to: to.email,
    subject: `Reset your ${PRODUCT_NAME} password`,
    greeting: `Hi ${to.username},`,
    lines: ['We received a request to reset the password of your account. Choose a new password with the link below.'],
    action: { label: 'Reset password', url: link(appOrigin, '/reset-password', token) },
    footer: 'This link is valid for 1 hour and works once. If you did not ask for a reset, you can ignore this email: your password stays as it is.',
  });
}

/** To the NEW address of an e-mail change: the link that makes it the account's address. */
export function emailChangeConfirmEmail(appOrigin: string, to: Recipient, token: string): MailMessage {
  return renderActionEmail({
    to: to.email,
    subject: `Confirm your new email for ${PRODUCT_NAME}`,
    greeting: `Hi ${to.username},`,
    lines: [`You asked to use this address for your ${PRODUCT_NAME} account. Your email changes when you confirm it with the link below.`],
    action: { label: 'Confirm new email', url: link(appOrigin, '/confirm-email', token) },
    footer: `This link is valid for 24 hours and works once. If you did not ask for this, you can ignore this email: the ${PRODUCT_NAME} account keeps its current address.`,
  });
}

/**
 * To the account's CURRENT address: a change of it was asked for, or made. The new address is shown masked
 * (the old address may have passed to someone else); the owner who did not ask is told to change the password.
 */
export function emailChangeNoticeEmail(appOrigin: string, to: Recipient, maskedNewEmail: string, stage: 'requested' | 'changed'): MailMessage {
  const requested = stage === 'requested';
  return renderActionEmail({
    to: to.email,
    subject: requested ? `Your ${PRODUCT_NAME} email is about to change` : `Your ${PRODUCT_NAME} email was changed`,
    greeting: `Hi ${to.username},`,
    lines: [
      requested
        ? `Someone asked to change the email of your ${PRODUCT_NAME} account to ${maskedNewEmail}. It changes only once that address confirms it.`
        : `The email of your ${PRODUCT_NAME} account was changed to ${maskedNewEmail}. This address no longer signs in to it.`,
      requested
        ? 'If this was not you, change your password now and cancel the change in Settings → Account.'
        : 'If this was not you, change your password now, or reply to this email so we can help you get your account back.',
    ],
    action: requested
      ? { label: 'Review account settings', url: `${appOrigin}/settings?tab=account` }
      : { label: 'Reset your password', url: `${appOrigin}/forgot-password` },
    footer: requested ? 'If you asked for this change, there is nothing to do here.' : 'If you made this change, there is nothing to do.',
  });
}

/** The last e-mail of a deleted account, to the address it had: what went, and that nothing can be restored. */
export function accountDeletedEmail(appOrigin: string, to: Recipient): MailMessage {
  return renderActionEmail({
    to: to.email,
    subject: `Your ${PRODUCT_NAME} account was deleted`,
    greeting: `Hi ${to.username},`,
    lines: [
      `Your ${PRODUCT_NAME} account has been deleted, as you asked. Your landing pages are offline, and their leads, statistics, uploaded images and webhook logs are being removed; any subscription was cancelled.`,
      'This cannot be undone. Your username and email address are free again, should you ever want a new account.',
    ],
    action: { label: `Visit ${PRODUCT_NAME}`, url: `${appOrigin}/` },
    footer: 'If you did not delete your account, reply to this email at once.',
  });
}

/** The account export is ready: its download link, signed and valid until `expiresAt` (24 hours). */
export function accountExportReadyEmail(to: Recipient, link: string, expiresAt: Date): MailMessage {
  return renderActionEmail({
    to: to.email,
    subject: `Your ${PRODUCT_NAME} data export is ready`,
    greeting: `Hi ${to.username},`,
    lines: [
      'The export of your account data you asked for is ready: one ZIP file with your account, and for each page its settings, its uploaded images and its leads as CSV.',
    ],
    action: { label: 'Download your data', url: link },
    footer: `This link works until ${expiresAt.toUTCString()} (24 hours); you can also download the file from Settings → Account until then. If you did not ask for it, change your password.`,
  });
}
