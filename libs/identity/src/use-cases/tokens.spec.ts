import { hashToken } from '@plink/crypto';
import { RESET_TOKEN_TTL_MS, VERIFICATION_TOKEN_TTL_MS, issueToken } from './tokens';

describe('issueToken', () => {
  it('issues 256-bit tokens with their hash and expiry (24 h verification, 1 h reset)', () => {
    const now = Date.now();
    const t = issueToken(VERIFICATION_TOKEN_TTL_MS);
    expect(Buffer.from(t.token, 'base64url')).toHaveLength(32);
    expect(t.hash).toBe(hashToken(t.token));
    expect(t.expiresAt.getTime() - now).toBeGreaterThanOrEqual(24 * 3600 * 1000 - 1000);
    expect(issueToken(RESET_TOKEN_TTL_MS).expiresAt.getTime() - now).toBeLessThanOrEqual(3600 * 1000 + 1000);
    expect(issueToken(RESET_TOKEN_TTL_MS).token).not.toBe(t.token);
  });
});
