import { z } from 'zod';
import { plainText } from './text';

/** Texts the server and the SPA share; users see them word for word, so change them only on purpose. */
export const IdentityMessages = {
  invalidEmail: 'Please enter a valid email',
  invalidEmailAddress: 'Please enter a valid email address',
  passwordTooShort: 'Password must be at least 6 characters',
  newPasswordTooShort: 'New password must be at least 8 characters',
  currentPasswordRequired: 'Current password is required',
  confirmNewPassword: 'Please confirm your new password',
  passwordsDontMatch: "Passwords don't match",
  emailExists: 'Email already exists',
  usernameExists: 'Username already exists',
  usernameLength: 'Username must be 3 to 30 characters',
  usernameCharacters: 'Username can only contain letters, numbers, underscores and hyphens',
  verifyBeforeLogin: 'Please verify your email before logging in.',
  invalidCredentials: 'Invalid email or password',
  missingVerificationToken: 'Missing verification token',
  invalidVerificationToken: 'Invalid or expired verification token',
  alreadyVerified: 'Your email is already verified',
  invalidResetToken: 'Invalid or expired reset token',
  currentPasswordWrong: 'Current password is incorrect',
  notSignedIn: 'Not authenticated',
  tooManyLoginAttempts: 'Too many failed login attempts. Please wait 15 minutes and try again.',
  tooManyRequests: 'Too many requests. Please slow down and try again in a minute.',
  tooManyRegistrations: 'Too many sign-ups from this network. Please try again later.',
  forgotPasswordSent: "If an account exists with that email, we've sent instructions to reset your password.",
  passwordResetDone: 'Your password has been reset. You can now log in.',
  passwordUpdated: 'Your password has been updated.',
  verificationSent: 'Verification email sent',
  sameEmail: 'This is already your email address',
  emailChangeSent: 'We sent a confirmation link to your new email address. Your email changes when you open it.',
  invalidEmailChangeToken: 'Invalid or expired confirmation link',
  emailChanged: 'Your email address has been changed.',
  emailChangeCancelled: 'The email change was cancelled.',
  noPendingEmailChange: 'There is no email change to cancel',
  usernameChanged: 'Your username has been changed.',
} as const;

/**
 * The 429 text of a login that must wait: the lockout message with the real wait, which is
 * 'Please wait 15 minutes' (the message above) at the longest.
 */
export function tooManyLoginAttemptsMessage(retryAfterSeconds: number): string {
  const seconds = Math.max(1, Math.ceil(retryAfterSeconds));
  if (seconds < 60) return `Too many failed login attempts. Please wait ${seconds} second${seconds === 1 ? '' : 's'} and try again.`;
  const minutes = Math.ceil(seconds / 60);
  return `Too many failed login attempts. Please wait ${minutes} minute${minutes === 1 ? '' : 's'} and try again.`;
}

export const LIMITS = {
  usernameMin: 3,
  usernameMax: 30,
  emailMax: 254,
  passwordMin: 6,
  newPasswordMin: 8,
  /** argon2 is fine with long inputs, but a 1 MB password is an attack, not a password. */
  passwordMax: 200,
  tokenMax: 200,
} as const;

/** Resend-verification cooldown (30 s after a resend), enforced by the server and counted down by the SPA. */
export const RESEND_VERIFICATION_COOLDOWN_SECONDS = 30;

/** Between two e-mail change requests of one account (each sends two e-mails, one to an address not proven yet). */
export const EMAIL_CHANGE_COOLDOWN_SECONDS = 30;

/** "Please wait N seconds …": the 429 of a second e-mail change request within the cooldown. */
export function emailChangeCooldownMessage(retryAfterSeconds: number): string {
  return `Please wait ${retryAfterSeconds} seconds before requesting another email change.`;
}

/**
 * An address as e-mails may show it to someone who may not be its owner (the old address of an account,
 * which may have passed to someone else): the first character of the local part and the domain, "n***@example.com".
 */
export function maskEmail(address: string): string {
  const at = address.lastIndexOf('@');
  if (at <= 0) return '***';
  return `${address[0]}***${address.slice(at)}`;
}

const email = (message: string) =>
  plainText('Email', { trim: true, error: message })
    .max(LIMITS.emailMax, { error: message })
    .pipe(z.email({ error: message }));

const password = plainText('Password', { error: IdentityMessages.passwordTooShort })
  .min(LIMITS.passwordMin, { error: IdentityMessages.passwordTooShort })
  .max(LIMITS.passwordMax, { error: `Password must be at most ${LIMITS.passwordMax} characters` });

export const usernameSchema = plainText('Username', { trim: true, error: IdentityMessages.usernameLength })
  .min(LIMITS.usernameMin, { error: IdentityMessages.usernameLength })
  .max(LIMITS.usernameMax, { error: IdentityMessages.usernameLength })
  .regex(/^[A-Za-z0-9_-]+$/, { error: IdentityMessages.usernameCharacters });

export const loginSchema = z.object({
  email: email(IdentityMessages.invalidEmail),
  password,
});
export type LoginRequest = z.infer<typeof loginSchema>;

export const registerSchema = z.object({
  username: usernameSchema,
  email: email(IdentityMessages.invalidEmail),
  password,
});
export type RegisterRequest = z.infer<typeof registerSchema>;

/** The SPA's registration form: the API's fields plus the client-only confirmation. */
export const registerFormSchema = registerSchema
  .extend({ confirmPassword: z.string() })
  .refine((v) => v.password === v.confirmPassword, {
    error: IdentityMessages.passwordsDontMatch,
    path: ['confirmPassword'],
  });
export type RegisterForm = z.infer<typeof registerFormSchema>;

const token = plainText('Token', { trim: true, error: IdentityMessages.missingVerificationToken })
  .min(1, { error: IdentityMessages.missingVerificationToken })
  .max(LIMITS.tokenMax, { error: IdentityMessages.invalidVerificationToken });

export const verifyEmailSchema = z.object({ token });
export type VerifyEmailRequest = z.infer<typeof verifyEmailSchema>;

export const forgotPasswordSchema = z.object({
  email: email(IdentityMessages.invalidEmailAddress),
});
export type ForgotPasswordRequest = z.infer<typeof forgotPasswordSchema>;

export const resetPasswordSchema = z.object({
  token: plainText('Token', { error: IdentityMessages.invalidResetToken })
    .min(1, { error: IdentityMessages.invalidResetToken })
    .max(LIMITS.tokenMax, { error: IdentityMessages.invalidResetToken }),
  password,
});
export type ResetPasswordRequest = z.infer<typeof resetPasswordSchema>;

export const resetPasswordFormSchema = z
  .object({ password, confirmPassword: z.string() })
  .refine((v) => v.password === v.confirmPassword, {
    error: IdentityMessages.passwordsDontMatch,
    path: ['confirmPassword'],
  });
export type ResetPasswordForm = z.infer<typeof resetPasswordFormSchema>;

export const updatePasswordSchema = z.object({
  currentPassword: plainText('Current password', { error: IdentityMessages.currentPasswordRequired })
    .min(1, { error: IdentityMessages.currentPasswordRequired })
    .max(LIMITS.passwordMax, { error: IdentityMessages.currentPasswordWrong }),
  newPassword: plainText('New password', { error: IdentityMessages.newPasswordTooShort })
    .min(LIMITS.newPasswordMin, { error: IdentityMessages.newPasswordTooShort })
    .max(LIMITS.passwordMax, { error: `New password must be at most ${LIMITS.passwordMax} characters` }),
});
export type UpdatePasswordRequest = z.infer<typeof updatePasswordSchema>;

export const updatePasswordFormSchema = updatePasswordSchema
  .extend({
    confirmPassword: z.string().min(1, { error: IdentityMessages.confirmNewPassword }),
  })
  .refine((v) => v.newPassword === v.confirmPassword, {
    error: IdentityMessages.passwordsDontMatch,
    path: ['confirmPassword'],
  });
export type UpdatePasswordForm = z.infer<typeof updatePasswordFormSchema>;

const currentPassword = plainText('Current password', { error: IdentityMessages.currentPasswordRequired })
  .min(1, { error: IdentityMessages.currentPasswordRequired })
  .max(LIMITS.passwordMax, { error: IdentityMessages.currentPasswordWrong });

/** Settings → Account: a new sign-in address, proven by the current password (it applies once confirmed). */
export const changeEmailSchema = z.object({
  newEmail: email(IdentityMessages.invalidEmailAddress),
  currentPassword,
});
export type ChangeEmailRequest = z.infer<typeof changeEmailSchema>;

/** The token of the link e-mailed to the new address (`/confirm-email?token=…`). */
export const confirmEmailChangeSchema = z.object({
  token: plainText('Token', { trim: true, error: IdentityMessages.invalidEmailChangeToken })
    .min(1, { error: IdentityMessages.invalidEmailChangeToken })
    .max(LIMITS.tokenMax, { error: IdentityMessages.invalidEmailChangeToken }),
});
export type ConfirmEmailChangeRequest = z.infer<typeof confirmEmailChangeSchema>;

/** Settings → Account: a new username, under the registration's rules. */
export const changeUsernameSchema = z.object({ username: usernameSchema });
export type ChangeUsernameRequest = z.infer<typeof changeUsernameSchema>;

/** What the API answers for a user: never a password hash, never a token value. */
export interface UserDto {
  id: number;
  username: string;
  email: string;
  isVerified: boolean;
  isPremium: boolean;
  createdAt: string;
  /** The address an e-mail change waits to be confirmed at (the link sent there), or null. */
  pendingEmail: string | null;
}

export interface MessageResponse {
  message: string;
}

export interface SuccessResponse {
  success: boolean;
  message: string;
}

export interface VerifyResetTokenResponse {
  valid: boolean;
}
