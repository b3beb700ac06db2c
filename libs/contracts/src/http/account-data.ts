import { z } from 'zod';
import { LIMITS } from './identity';

/** Settings → Account's data calls (export, deletion): texts the server and the SPA share word for word. */
export const AccountDataMessages = {
  usernameMismatch: 'The username you typed does not match your username.',
  usernameRequired: 'Please type your username to confirm',
  passwordRequired: 'Please enter your password',
  accountDeleted: 'Your account has been deleted.',
} as const;

/** `DELETE /api/account`: the password and the username typed again. */
export const deleteAccountSchema = z.object({
  password: z.string({ error: AccountDataMessages.passwordRequired }).min(1, { error: AccountDataMessages.passwordRequired }).max(LIMITS.passwordMax),
  username: z.string({ error: AccountDataMessages.usernameRequired }).min(1, { error: AccountDataMessages.usernameRequired }).max(100),
});
export type DeleteAccountRequest = z.infer<typeof deleteAccountSchema>;
