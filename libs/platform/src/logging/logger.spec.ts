import { maskToken, scrubText, scrubValue } from './logger';

describe('log scrubbing', () => {
  it('shows at most the first 10 characters of a token', () => {
    expect(maskToken('abcdefghijklmnopqrstuvwxyz')).toBe('abcdefghij…');
    expect(maskToken('abc').length).toBeLessThanOrEqual(10);
  });

  it('removes e-mail addresses from text and secrets from objects', () => {
    expect(scrubText('sent to Jane.Doe+x@Example.co.uk today')).toBe('sent to [email] today');
    expect(
      scrubValue({ email: 'a@b.co', password: 'p', nested: { token: 't', note: 'from c@d.io', userId: 4 }, list: ['e@f.gh'] }),
    ).toEqual({ email: '[email]', password: '[redacted]', nested: { token: '[redacted]', note: 'from [email]', userId: 4 }, list: ['[email]'] });
  });
});
