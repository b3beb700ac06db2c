import {
  createPageSchema,
  forgotPasswordSchema,
  hasForbiddenCharacters,
  loginSchema,
  notAllowedCharactersMessage,
  registerSchema,
  resetPasswordSchema,
  submitLeadSchema,
  updatePageSchema,
  updatePasswordSchema,
  verifyEmailSchema,
} from '../index';

const firstMessage = (r: { success: boolean; error?: { issues: { message: string }[] } }) =>
  r.success ? undefined : r.error?.issues[0]?.message;

const LONE_HIGH = String.fromCharCode(0xd83d);
const LONE_LOW = String.fromCharCode(0xde00);

describe('characters a text field refuses', () => {
  it('refuses every C0 control character, DEL and lone surrogates in single-line text', () => {
    for (let c = 0; c < 0x20; c += 1) expect(hasForbiddenCharacters(`a${String.fromCharCode(c)}b`)).toBe(true);
    expect(hasForbiddenCharacters('a\u007fb')).toBe(true);
    expect(hasForbiddenCharacters(`a${LONE_HIGH}`)).toBe(true);
    expect(hasForbiddenCharacters(`${LONE_LOW}a`)).toBe(true);
    expect(hasForbiddenCharacters(`${LONE_LOW}${LONE_HIGH}`)).toBe(true);
  });

  it('keeps tab, line feed and carriage return in multi-line text, and nothing else of C0', () => {
    expect(hasForbiddenCharacters('a\tb\nc\r\nd', true)).toBe(false);
    for (let c = 0; c < 0x20; c += 1) {
      if (c === 9 || c === 10 || c === 13) continue;
      expect(hasForbiddenCharacters(`a${String.fromCharCode(c)}b`, true)).toBe(true);
    }
    expect(hasForbiddenCharacters('a\u0000', true)).toBe(true);
  });

  it('takes ordinary text of every script, emoji (surrogate pairs) and non-breaking spaces', () => {
    for (const text of ['Hello', 'Grüße aus Köln', '日本語のタイトル', 'مرحبا', '👍🏽 Get it 🎁', 'a\u00a0b', 'zero\u200bwidth', '\u0085']) {
      expect(hasForbiddenCharacters(text)).toBe(false);
    }
  });
});

describe('every request schema names the field holding a control character', () => {
  it.each([
    ['title', 'Title'],
    ['authorName', 'Author name'],
    ['buttonText', 'Button text'],
    ['thankYouHeadline', 'Thank-you headline'],
    ['thankYouButtonText', 'Thank-you button text'],
    ['metaTitle', 'Meta title'],
    ['fileUrl', 'File URL'],
    ['imageUrl', 'Main image'],
    ['webhookUrl', 'Webhook URL'],
  ])('single-line page field %s: NUL, a line break and a lone surrogate are refused', (field, label) => {
    for (const bad of ['a\u0000b', 'a\nb', `a${LONE_HIGH}b`]) {
      const value = field.endsWith('Url') ? `https://example.com/${bad}` : bad;
      for (const schema of [createPageSchema, updatePageSchema]) {
        expect(firstMessage(schema.safeParse({ slug: 'ok', [field]: value }))).toBe(notAllowedCharactersMessage(label));
      }
    }
  });

  it.each([
    ['subtext', 'Subtext'],
    ['thankYouSubtext', 'Thank-you subtext'],
    ['metaDescription', 'Meta description'],
    ['customCodeSnippet', 'Custom code'],
  ])('multi-line page field %s keeps line breaks and tabs but refuses NUL and other controls', (field, label) => {
    expect(createPageSchema.safeParse({ slug: 'ok', [field]: 'one\r\ntwo\tthree\n' }).success).toBe(true);
    for (const bad of ['a\u0000b', 'a\u0007b', 'a\u001bb', `a${LONE_LOW}`]) {
      expect(firstMessage(createPageSchema.safeParse({ slug: 'ok', [field]: bad }))).toBe(notAllowedCharactersMessage(label));
      expect(firstMessage(updatePageSchema.safeParse({ [field]: bad }))).toBe(notAllowedCharactersMessage(label));
    }
  });

  it('refuses a control character in a slug with its own message', () => {
    expect(firstMessage(createPageSchema.safeParse({ slug: 'my\u0000page' }))).toBe(notAllowedCharactersMessage('Slug'));
  });

  it('checks identity fields: e-mail, username, passwords and tokens', () => {
    const ok = { email: 'ann@example.com', password: 'secret12', username: 'ann' };
    expect(firstMessage(loginSchema.safeParse({ ...ok, email: 'ann\u0000@example.com' }))).toBe(notAllowedCharactersMessage('Email'));
    expect(firstMessage(loginSchema.safeParse({ ...ok, password: 'secret\u000012' }))).toBe(notAllowedCharactersMessage('Password'));
    expect(firstMessage(registerSchema.safeParse({ ...ok, username: 'an\u0000n' }))).toBe(notAllowedCharactersMessage('Username'));
    expect(firstMessage(registerSchema.safeParse({ ...ok, password: `secret${LONE_HIGH}12` }))).toBe(notAllowedCharactersMessage('Password'));
    expect(firstMessage(forgotPasswordSchema.safeParse({ email: 'ann@exa\u0001mple.com' }))).toBe(notAllowedCharactersMessage('Email'));
    expect(firstMessage(resetPasswordSchema.safeParse({ token: 'abc\u0000', password: 'secret12' }))).toBe(notAllowedCharactersMessage('Token'));
    expect(firstMessage(verifyEmailSchema.safeParse({ token: 'a\u0000b' }))).toBe(notAllowedCharactersMessage('Token'));
    expect(firstMessage(updatePasswordSchema.safeParse({ currentPassword: 'x\u0000', newPassword: 'secret123' }))).toBe(
      notAllowedCharactersMessage('Current password'),
    );
    expect(firstMessage(updatePasswordSchema.safeParse({ currentPassword: 'secret12', newPassword: 'secret12\u0008' }))).toBe(
      notAllowedCharactersMessage('New password'),
    );
  });

  it('forgives white space around a trimmed field (a pasted address with its line break)', () => {
    expect(loginSchema.parse({ email: ' ann@example.com\n', password: 'secret12' }).email).toBe('ann@example.com');
  });

  it('checks a visitor’s e-mail address', () => {
    expect(firstMessage(submitLeadSchema.safeParse({ email: 'a\u0000@example.com' }))).toBe(notAllowedCharactersMessage('Email'));
    expect(submitLeadSchema.safeParse({ email: 'a@example.com' }).success).toBe(true);
  });
});
