import { PasswordHasher } from './password-hasher';

describe('PasswordHasher', () => {
  const hasher = new PasswordHasher();

  it('hashes with argon2id, salted, and verifies only the right password', async () => {
    const a = await hasher.hash('correct horse');
    const b = await hasher.hash('correct horse');
    expect(a).toMatch(/^\$argon2id\$/);
    expect(a).not.toBe(b);
    await expect(hasher.verify(a, 'correct horse')).resolves.toBe(true);
    await expect(hasher.verify(a, 'correct horsE')).resolves.toBe(false);
    await expect(hasher.verify('not a hash', 'x')).resolves.toBe(false);
    await expect(hasher.verifyNothing('anything')).resolves.toBe(false);
  });
});
