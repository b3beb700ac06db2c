import { FORM_TOKEN_MAX_AGE_MS, FORM_TOKEN_MIN_AGE_MS, FormTokens } from './form-token';

describe('form tokens', () => {
  // A controllable clock: every time below is an explicit instant.
  const issuedAt = Date.UTC(2026, 11, 5, 10, 0, 0);
  const tokens = new FormTokens('server-secret-one');

  it('accepts a token of its page from 2 s to 2 h after it was issued', () => {
    const token = tokens.issue(42, issuedAt);
    expect(token).toMatch(/^v1\.16\.[0-9a-z]+\.[A-Za-z0-9_-]{22}$/);
    expect(tokens.check(token, 42, issuedAt + FORM_TOKEN_MIN_AGE_MS)).toBe('ok');
    expect(tokens.check(token, 42, issuedAt + 60_000)).toBe('ok');
    expect(tokens.check(token, 42, issuedAt + FORM_TOKEN_MAX_AGE_MS)).toBe('ok');
  });

  it('says a token sent sooner than 2 s after its issue is early, and one older than 2 h expired', () => {
    const token = tokens.issue(42, issuedAt);
    expect(tokens.check(token, 42, issuedAt)).toBe('early');
    expect(tokens.check(token, 42, issuedAt + FORM_TOKEN_MIN_AGE_MS - 1)).toBe('early');
    // A clock behind the issuer's (another replica) is early too, never accepted.
    expect(tokens.check(token, 42, issuedAt - 5_000)).toBe('early');
    expect(tokens.check(token, 42, issuedAt + FORM_TOKEN_MAX_AGE_MS + 1)).toBe('expired');
  });

  it('refuses a missing token, another page\'s, another secret\'s and any edit as forged', () => {
    const now = issuedAt + 10_000;
    const token = tokens.issue(42, issuedAt);
    expect(tokens.check(undefined, 42, now)).toBe('missing');
    expect(tokens.check('', 42, now)).toBe('missing');
    expect(tokens.check(42, 42, now)).toBe('missing');
    expect(tokens.check(token, 43, now)).toBe('forged');
    expect(tokens.check(new FormTokens('server-secret-two').issue(42, issuedAt), 42, now)).toBe('forged');
    // Backdating the issue time (to skip the wait) breaks the signature.
    const [v, page, , mac] = token.split('.');
    expect(tokens.check([v, page, (issuedAt - 60_000).toString(36), mac].join('.'), 42, now)).toBe('forged');
    expect(tokens.check([v, page, token.split('.')[2], (mac.startsWith('A') ? 'B' : 'A') + mac.slice(1)].join('.'), 42, now)).toBe('forged');
    expect(tokens.check('v1.16.abc', 42, now)).toBe('forged');
    // A genuine token checked before (remembered) is still another page's, and still edited means forged.
    expect(tokens.check(token, 42, now)).toBe('ok');
    expect(tokens.check(token, 43, now)).toBe('forged');
    expect(tokens.check(token.replace('v1.16.', 'v1.17.'), 43, now)).toBe('forged');
    expect(tokens.check('x'.repeat(500), 42, now)).toBe('forged');
  });
});
