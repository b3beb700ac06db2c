import { createHash } from 'node:crypto';
import { hashToken, keyedHash, randomToken, seal, unseal } from './secrets';

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
    // One bit flipped (writing 'AA' over the end changed nothing when it ended so already).
    const [iv, tag, body] = sealed.split('.');
    const tampered = Buffer.from(body, 'base64url');
    tampered[0] ^= 1;
    expect(() => unseal('secret-one', [iv, tag, tampered.toString('base64url')].join('.'))).toThrow();
  });

  it('keys a hash with the secret and its purpose: the same value matches, a guess without the secret does not', () => {
    const kept = keyedHash('secret-one', 'trial-memory', 'ada@example.com');
    expect(kept).toMatch(/^[0-9a-f]{64}$/);
    expect(keyedHash('secret-one', 'trial-memory', 'ada@example.com')).toBe(kept);
    expect(keyedHash('secret-one', 'trial-memory', 'bob@example.com')).not.toBe(kept);
    expect(keyedHash('secret-two', 'trial-memory', 'ada@example.com')).not.toBe(kept);
    expect(keyedHash('secret-one', 'another-purpose', 'ada@example.com')).not.toBe(kept);
    expect(kept).not.toBe(createHash('sha256').update('ada@example.com').digest('hex'));
  });
});
