/** A repeated sign-up of a known address has its e-mail (confirmation or file) sent again at most this often. */
export const RESEND_AFTER_MS = 10 * 60_000;
/** A pending lead's visitor is reminded once, this long after signing up. */
export const REMIND_AFTER_MS = 48 * 3_600_000;
/** A lead still pending this long after its sign-up is removed, and its links stop working. */
export const EXPIRE_AFTER_MS = 7 * 86_400_000;
