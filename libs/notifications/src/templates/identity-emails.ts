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
