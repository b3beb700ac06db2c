import { createHash, createHmac, timingSafeEqual } from 'node:crypto';

/** A form token is accepted this long after it was issued (older: 'expired'). */
export const FORM_TOKEN_MAX_AGE_MS = 2 * 60 * 60 * 1000;
/** ...and no sooner than this after it was issued (sooner: 'early', a script that never waited). */
export const FORM_TOKEN_MIN_AGE_MS = 2_000;

/** Genuine tokens remembered (their issue time), so a repeated one costs no HMAC; emptied when full. */
const REMEMBERED_TOKENS = 10_000;

/** What a submitted form token is: good, or why it is not. */
export type FormTokenCheck = 'ok' | 'missing' | 'forged' | 'expired' | 'early';

/** The key form tokens are signed with: derived from the server secret for this one purpose. */
function formTokenKey(secret: string): Buffer {
  return createHash('sha256').update(`form-token\0${secret}`).digest();
}

function signature(key: Buffer, body: string): Buffer {
  // 16 bytes of HMAC-SHA256: 128 bits, far beyond guessing, and a short hidden field.
  return createHmac('sha256', key).update(body).digest().subarray(0, 16);
}

/**
 * Signs form tokens for one server secret. A token is `v1.{pageId}.{issuedAt}.{mac}` (ids and times in base 36,
 * the HMAC in base64url): it names the page it was served with and when, so a submission can be checked without
 * any storage. It is not secret (it stands in the page's HTML); only the server can make one.
 */
export class FormTokens {
  private readonly key: Buffer;
  /**
   * The issue time of genuine tokens seen lately. A cached page serves one token to every visitor within its
   * interval, so most submissions repeat a token already checked: measured under the submit bench, creating the
   * HMAC took about 8 % of the gateway's CPU when every submission computed it.
   */
  private readonly genuine = new Map<string, number>();

  constructor(secret: string) {
    this.key = formTokenKey(secret);
  }

  /** A token for a form of this page, issued at `issuedAt` (ms since the epoch). */
  issue(pageId: number, issuedAt: number): string {
    const body = `v1.${pageId.toString(36)}.${Math.floor(issuedAt).toString(36)}`;
    return `${body}.${signature(this.key, body).toString('base64url')}`;
  }

  /** Checks a submitted token for this page at time `now` (ms since the epoch). */
  check(token: unknown, pageId: number, now: number): FormTokenCheck {
    if (typeof token !== 'string' || token === '') return 'missing';
    const issuedAt = this.issuedAt(token, pageId);
    if (issuedAt === null) return 'forged';
    const age = now - issuedAt;
    if (age > FORM_TOKEN_MAX_AGE_MS) return 'expired';
    if (age < FORM_TOKEN_MIN_AGE_MS) return 'early';
    return 'ok';
  }

  /** The issue time of a genuine token of this page, else null (malformed, another page, or not signed here). */
  private issuedAt(token: string, pageId: number): number | null {
    if (token.length > 100) return null;
    const parts = token.split('.');
    if (parts.length !== 4 || parts[0] !== 'v1' || parts[1] !== pageId.toString(36) || !/^[0-9a-z]{1,12}$/.test(parts[2])) return null;
    const known = this.genuine.get(token);
    if (known !== undefined) return known;
    const given = Buffer.from(parts[3], 'base64url');
    const expected = signature(this.key, parts.slice(0, 3).join('.'));
    if (given.length !== expected.length || !timingSafeEqual(given, expected)) return null;
    const issuedAt = parseInt(parts[2], 36);
    if (!Number.isSafeInteger(issuedAt)) return null;
    if (this.genuine.size >= REMEMBERED_TOKENS) this.genuine.clear();
    this.genuine.set(token, issuedAt);
    return issuedAt;
  }
}
