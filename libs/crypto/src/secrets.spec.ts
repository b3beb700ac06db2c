import { hashToken, randomToken, seal, unseal } from './secrets';

describe('secrets', () => {
  it('makes 256-bit url-safe tokens and stores only their hash', () => {
    const a = randomToken();
    expect(a).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(randomToken()).not.toBe(a);
    expect(hashToken(a)).toMatch(/^[0-9a-f]{64}$/);
    expect(hashToken(a)).not.toContain(a);
  });

  it('seals a token for a job and refuses a tampered or foreign seal', () => {
    const sealed = seal('secret-one', 'the-token');
    expect(sealed).not.toContain('the-token');
    expect(unseal('secret-one', sealed)).toBe('the-token');
    expect(() => unseal('secret-two', sealed)).toThrow();
    const [iv, tag, body] = sealed.split('.');
    expect(() => unseal('secret-one', [iv, tag, body.slice(0, -2) + 'AA'].join('.'))).toThrow();
  });
});
