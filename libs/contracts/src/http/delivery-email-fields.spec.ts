import { DeliveryEmailTexts, PAGE_LIMITS, createPageSchema, testDeliveryEmailSchema, updatePageSchema } from '../index';

const firstMessage = (r: { success: boolean; error?: { issues: { message: string }[] } }) =>
  r.success ? undefined : r.error?.issues[0]?.message;

describe('delivery e-mail fields', () => {
  it('default to null: the standard sender, reply-to, subject and text', () => {
    const defaults = createPageSchema.parse({ slug: 'ok' });
    expect([defaults.emailSenderName, defaults.emailReplyTo, defaults.emailSubject, defaults.emailBody]).toEqual([undefined, undefined, undefined, undefined]);
    expect(createPageSchema.parse({ slug: 'ok', emailSenderName: '  ', emailReplyTo: '', emailSubject: '', emailBody: ' ' })).toMatchObject({
      emailSenderName: null,
      emailReplyTo: null,
      emailSubject: null,
      emailBody: null,
    });
  });

  it('keep what the creator wrote, trimmed', () => {
    expect(
      updatePageSchema.parse({ emailSenderName: ' Ana from Photo Guide ', emailReplyTo: ' ana@example.com ', emailSubject: 'Your guide', emailBody: '<p>Hi</p>' }),
    ).toEqual({ emailSenderName: 'Ana from Photo Guide', emailReplyTo: 'ana@example.com', emailSubject: 'Your guide', emailBody: '<p>Hi</p>' });
  });

  it.each([
    ['emailSenderName', 'Ana\r\nBcc: everyone@example.com', 'Sender name must be on one line (no line breaks)'],
    ['emailSenderName', 'Ana\nX', 'Sender name must be on one line (no line breaks)'],
    ['emailSubject', 'Hello\rBcc: x@example.com', 'Subject must be on one line (no line breaks)'],
    ['emailSenderName', 'Ana\u0000', 'Sender name contains characters that are not allowed.'],
  ])('refuse a header injection in %s with a clear message', (field, value, message) => {
    expect(firstMessage(updatePageSchema.safeParse({ [field]: value }))).toBe(message);
    expect(firstMessage(testDeliveryEmailSchema.safeParse({ [field]: value }))).toBe(message);
  });

  it('refuse a reply-to that is not an e-mail address', () => {
    expect(firstMessage(updatePageSchema.safeParse({ emailReplyTo: 'not an address' }))).toBe(DeliveryEmailTexts.invalidReplyTo);
    expect(firstMessage(updatePageSchema.safeParse({ emailReplyTo: 'a@example.com\r\nBcc: b@example.com' }))).toBeDefined();
  });

  it('limit the lengths', () => {
    expect(firstMessage(updatePageSchema.safeParse({ emailSenderName: 'x'.repeat(PAGE_LIMITS.emailSenderName + 1) }))).toBe(
      `Sender name must be at most ${PAGE_LIMITS.emailSenderName} characters`,
    );
    expect(firstMessage(updatePageSchema.safeParse({ emailSubject: 'x'.repeat(PAGE_LIMITS.emailSubject + 1) }))).toBe(
      `Subject must be at most ${PAGE_LIMITS.emailSubject} characters`,
    );
    expect(firstMessage(updatePageSchema.safeParse({ emailBody: 'x'.repeat(PAGE_LIMITS.emailBody + 1) }))).toBe(
      `Email text must be at most ${PAGE_LIMITS.emailBody} characters`,
    );
  });

  it('the test send takes the unsaved values with the page colour and file', () => {
    expect(testDeliveryEmailSchema.parse({ emailSubject: 'Hi', buttonColor: '#ff0000', fileUrl: 'https://f.example/x.pdf' })).toEqual({
      emailSubject: 'Hi',
      buttonColor: '#ff0000',
      fileUrl: 'https://f.example/x.pdf',
    });
    expect(testDeliveryEmailSchema.safeParse({ buttonColor: 'red' }).success).toBe(false);
  });
});
