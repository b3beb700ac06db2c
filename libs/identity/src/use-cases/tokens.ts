import { hashToken, randomToken } from '@plink/crypto';

export const VERIFICATION_TOKEN_TTL_MS = 24 * 3600 * 1000;
export const RESET_TOKEN_TTL_MS = 3600 * 1000;
export const EMAIL_CHANGE_TOKEN_TTL_MS = 24 * 3600 * 1000;

/** A fresh single-use token: the value for the e-mail, its hash for the database. */
export function issueToken(ttlMs: number): { token: string; hash: string; expiresAt: Date } {
  const token = randomToken(32);
  return { token, hash: hashToken(token), expiresAt: new Date(Date.now() + ttlMs) };
}
