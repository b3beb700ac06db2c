import { loginSchema, registerFormSchema, registerSchema, updatePasswordFormSchema, forgotPasswordSchema } from '../index';

const firstMessage = (r: { success: boolean; error?: { issues: { message: string }[] } }) =>
  r.success ? undefined : r.error?.issues[0]?.message;

describe('identity request schemas', () => {
  it('refuses a bad e-mail or a short password at login with the texts the user sees, and trims the address', () => {
    expect(firstMessage(loginSchema.safeParse({ email: 'nope', password: 'secret1' }))).toBe('Please enter a valid email');
    expect(firstMessage(loginSchema.safeParse({ email: 'a@b.co', password: '12345' }))).toBe(
      'Password must be at least 6 characters',
    );
    expect(loginSchema.safeParse({ email: ' A@B.co ', password: '123456' }).data?.email).toBe('A@B.co');
  });

  it('checks usernames: 3-30 of letters, digits, _ and -', () => {
    const base = { email: 'a@b.co', password: 'secret1' };
    expect(registerSchema.safeParse({ ...base, username: 'ok_name-1' }).success).toBe(true);
    expect(firstMessage(registerSchema.safeParse({ ...base, username: 'ab' }))).toBe('Username must be 3 to 30 characters');
    expect(firstMessage(registerSchema.safeParse({ ...base, username: 'x'.repeat(10_000) }))).toBe(
      'Username must be 3 to 30 characters',
    );
    expect(firstMessage(registerSchema.safeParse({ ...base, username: 'bad name' }))).toBe(
      'Username can only contain letters, numbers, underscores and hyphens',
    );
  });

  it('puts "Passwords don\'t match" on the confirmation field', () => {
    const r = registerFormSchema.safeParse({ username: 'abc', email: 'a@b.co', password: 'secret1', confirmPassword: 'other1' });
    expect(r.success).toBe(false);
    expect(r.error?.issues[0]).toMatchObject({ message: "Passwords don't match", path: ['confirmPassword'] });
  });

  it('uses the settings texts for a password change', () => {
    const r = updatePasswordFormSchema.safeParse({ currentPassword: '', newPassword: 'short', confirmPassword: '' });
    const messages = r.error?.issues.map((i) => i.message);
    expect(messages).toEqual(
      expect.arrayContaining([
        'Current password is required',
        'New password must be at least 8 characters',
        'Please confirm your new password',
      ]),
    );
  });

  it('uses the forgot-password text', () => {
    expect(firstMessage(forgotPasswordSchema.safeParse({ email: 'x' }))).toBe('Please enter a valid email address');
  });
});
