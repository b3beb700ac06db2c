import { z } from 'zod';
import { LIMITS } from './identity';

/** Settings → Account's data calls (export, deletion): texts the server and the SPA share word for word. */
export const AccountDataMessages = {
  usernameMismatch: 'The username you typed does not match your username.',
  usernameRequired: 'Please type your username to confirm',
  passwordRequired: 'Please enter your password',
  accountDeleted: 'Your account has been deleted.',
  exportNotFound: 'Export not found',
  exportBusy: 'Your data is already being exported. Please wait until it is ready.',
} as const;

/** `DELETE /api/account`: the password and the username typed again. */
export const deleteAccountSchema = z.object({
  password: z.string({ error: AccountDataMessages.passwordRequired }).min(1, { error: AccountDataMessages.passwordRequired }).max(LIMITS.passwordMax),
  username: z.string({ error: AccountDataMessages.usernameRequired }).min(1, { error: AccountDataMessages.usernameRequired }).max(100),
});
export type DeleteAccountRequest = z.infer<typeof deleteAccountSchema>;

/** How long an export's ZIP (and the link e-mailed for it) is kept. */
export const EXPORT_TTL_HOURS = 24;

export const ACCOUNT_EXPORT_STATUSES = ['pending', 'ready', 'failed'] as const;

/** An account export as its owner sees it (`GET /api/account/export/{id}` while it is built, `GET /api/account/export`). */
export const accountExportSchema = z.object({
  id: z.string(),
  status: z.enum(ACCOUNT_EXPORT_STATUSES),
  createdAt: z.string(),
  /** When the ZIP is removed (ready exports). */
  expiresAt: z.string().nullable(),
  /** The ZIP's size in bytes (ready exports). */
  size: z.number().nullable(),
});
export type AccountExport = z.infer<typeof accountExportSchema>;

export const accountExportStartedSchema = z.object({ id: z.string() });
export type AccountExportStarted = z.infer<typeof accountExportStartedSchema>;

/** `GET /api/account/export`: the newest export of the signed-in user still kept, if any. */
export const latestAccountExportSchema = z.object({ export: accountExportSchema.nullable() });
export type LatestAccountExport = z.infer<typeof latestAccountExportSchema>;

/**
 * Where an account export's files are kept in the uploads store, outside the uploaded images' `u{id}/` (never
 * served at /uploads, see the uploads route): the leads service's CSV per page, then the pages service's ZIP.
 */
export const accountExportKeys = {
  folder: (userId: number, exportId: string) => `exports/u${userId}/${exportId}`,
  leads: (userId: number, exportId: string, pageId: number) => `exports/u${userId}/${exportId}/leads-${pageId}.csv`,
  zip: (userId: number, exportId: string) => `exports/u${userId}/${exportId}/plink-export.zip`,
};
