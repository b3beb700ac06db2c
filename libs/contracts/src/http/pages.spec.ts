import {
  FONTS,
  PAGE_LIMITS,
  EXAMPLE_SLUGS,
  PageMessages,
  isExampleSlug,
  mayBePageSlug,
  RESERVED_SLUGS,
  conversionRate,
  createPageSchema,
  shownThankYouSubtext,
  formatConversionRate,
  isAllowedPageUrl,
  isReservedSlug,
  slugSchema,
  updatePageSchema,
} from '../index';
import { newPageFields } from '../testing';

const firstMessage = (r: { success: boolean; error?: { issues: { message: string }[] } }) =>
  r.success ? undefined : r.error?.issues[0]?.message;

describe('the thank-you text of a double opt-in page', () => {
  it("asks to confirm in place of the standard text or a blank one, and keeps a creator's own", () => {
    expect(shownThankYouSubtext({ doubleOptIn: true, thankYouSubtext: 'Check your email for your download link.' })).toBe('Check your inbox to confirm your e-mail.');
    expect(shownThankYouSubtext({ doubleOptIn: true, thankYouSubtext: '  ' })).toBe('Check your inbox to confirm your e-mail.');
    expect(shownThankYouSubtext({ doubleOptIn: true, thankYouSubtext: 'See you soon!' })).toBe('See you soon!');
    expect(shownThankYouSubtext({ doubleOptIn: false, thankYouSubtext: 'Check your email for your download link.' })).toBe('Check your email for your download link.');
  });
});

describe('page request schemas', () => {
  it('fills every field a new page leaves out with its default', () => {
    const defaults = {
      slug: 'my-page',
      title: '',
      buttonText: 'Submit',
      buttonColor: '#000000',
      backgroundColor: '#ffffff',
      showUsername: true,
      useSharpCorners: false,
      hideDropShadow: false,
      thankYouHeadline: 'Thank you!',
      thankYouSubtext: 'Check your email for your download link.',
      textAlignment: 'left',
      showBranding: true,
      hidePrivacyPolicyCheckbox: false,
      doubleOptIn: false,
      refuseThrowaway: true,
      titleFont: 'Inter',
      descriptionFont: 'Inter',
      authorFont: 'Inter',
      titleBold: true,
      descriptionBold: false,
      authorBold: false,
    };
    expect(createPageSchema.parse({ slug: 'my-page' })).toEqual(defaults);
    // The tests' new page (@plink/contracts/testing, read from the schema): these defaults, and none for the rest.
    expect(newPageFields('my-page')).toEqual({
      ...defaults,
      subtext: null,
      authorName: null,
      backgroundImage: null,
      imageUrl: null,
      fileUrl: null,
      redirectUrl: null,
      webhookUrl: null,
      customCodeSnippet: null,
      thankYouButtonText: null,
      thankYouButtonUrl: null,
      metaTitle: null,
      metaDescription: null,
      metaImageUrl: null,
      faviconUrl: null,
      privacyPolicyUrl: null,
      controllerName: null,
      facebookPixelId: null,
      googleAnalyticsId: null,
      emailSenderName: null,
      emailReplyTo: null,
      emailSubject: null,
      emailBody: null,
    });
  });

  it.each([
    [undefined, PageMessages.slugRequired],
    ['', PageMessages.slugRequired],
    ['  ', PageMessages.slugRequired],
    ['Upper', PageMessages.slugCharacters],
    ['with space', PageMessages.slugCharacters],
    ['under_score', PageMessages.slugCharacters],
    ['dot.ted', PageMessages.slugCharacters],
    ['slash/ed', PageMessages.slugCharacters],
    ['émoji', PageMessages.slugCharacters],
    ['a'.repeat(PAGE_LIMITS.slugMax + 1), PageMessages.slugTooLong],
    ['dashboard', PageMessages.slugReserved],
    ['api', PageMessages.slugReserved],
    ['p', PageMessages.slugReserved],
    ['verify-email', PageMessages.slugReserved],
  ])('refuses the slug %j with its message', (slug, message) => {
    expect(firstMessage(slugSchema.safeParse(slug))).toBe(message);
    expect(firstMessage(createPageSchema.safeParse({ slug }))).toBe(message);
  });

  it('accepts lower-case letters, digits and hyphens, trimmed', () => {
    for (const slug of ['a', 'my-page', '2024-guide', 'a'.repeat(PAGE_LIMITS.slugMax)]) expect(slugSchema.parse(slug)).toBe(slug);
    expect(slugSchema.parse('  padded  ')).toBe('padded');
  });

  it('keeps every route and file of the app out of the slugs, in any case', () => {
    for (const slug of ['api', 'auth', 'dashboard', 'settings', 'editor', 'stats', 'checkout', 'p', 'uploads', 'terms', 'privacy',
      'verify-email', 'verify-prompt', 'forgot-password', 'reset-password', 'assets', 'favicon.ico', 'robots.txt']) {
      expect(RESERVED_SLUGS).toContain(slug);
      expect(isReservedSlug(slug.toUpperCase())).toBe(true);
    }
    expect(isReservedSlug('my-page')).toBe(false);
  });

  it('serves the example pages at their slugs but gives those slugs to no creator', () => {
    for (const slug of EXAMPLE_SLUGS) {
      expect(mayBePageSlug(slug)).toBe(true);
      expect(isExampleSlug(slug.toUpperCase())).toBe(true);
      expect(firstMessage(slugSchema.safeParse(slug))).toBe(PageMessages.slugReserved);
    }
    expect(EXAMPLE_SLUGS).toEqual(['photo-guide', 'startupwkly', 'saas-waitlist']);
    expect(isExampleSlug('photo-guides')).toBe(false);
  });

  it('allows http(s) URLs and the product’s own /uploads files only', () => {
    for (const url of ['https://example.com/a.pdf', 'http://example.com', '/uploads/abc.png', '/uploads/dir/a-b_c.jpg']) {
      expect(isAllowedPageUrl(url)).toBe(true);
    }
    for (const url of ['javascript:alert(1)', 'data:text/html,x', 'ftp://example.com', '//example.com', '/uploads/../x', '/other/a.png', 'example.com', 'https://']) {
      expect(isAllowedPageUrl(url)).toBe(false);
      expect(firstMessage(createPageSchema.safeParse({ slug: 'ok', fileUrl: url }))).toBe(PageMessages.invalidUrl);
    }
    // Empty means "none".
    expect(createPageSchema.parse({ slug: 'ok', fileUrl: '', redirectUrl: null }).fileUrl).toBeNull();
  });

  it("takes the creator's own privacy policy as an absolute http(s) URL only, with its own message", () => {
    const parsed = createPageSchema.parse({ slug: 'ok', privacyPolicyUrl: ' https://ann.example/privacy ', controllerName: 'Ann Adams' });
    expect([parsed.privacyPolicyUrl, parsed.controllerName]).toEqual(['https://ann.example/privacy', 'Ann Adams']);
    for (const url of ['javascript:alert(1)', 'data:text/html,x', '/uploads/abc.png', '/privacy', 'ftp://ann.example', 'https://user:pw@ann.example/p']) {
      expect(firstMessage(createPageSchema.safeParse({ slug: 'ok', privacyPolicyUrl: url }))).toBe('Your privacy policy URL must start with http:// or https://');
    }
    expect(createPageSchema.parse({ slug: 'ok', privacyPolicyUrl: '', controllerName: '  ' })).toMatchObject({ privacyPolicyUrl: null, controllerName: null });
    expect(firstMessage(createPageSchema.safeParse({ slug: 'ok', controllerName: 'x'.repeat(101) }))).toBe('Your name or business name must be at most 100 characters');
  });

  it('checks colours, fonts and alignment with the shared messages', () => {
    expect(firstMessage(createPageSchema.safeParse({ slug: 'ok', buttonColor: 'red' }))).toBe(PageMessages.invalidColor);
    expect(firstMessage(createPageSchema.safeParse({ slug: 'ok', backgroundColor: '#abc' }))).toBe(PageMessages.invalidColor);
    expect(createPageSchema.parse({ slug: 'ok', buttonColor: '#A1b2C3' }).buttonColor).toBe('#A1b2C3');
    expect(firstMessage(createPageSchema.safeParse({ slug: 'ok', titleFont: 'Comic Sans MS' }))).toBe(PageMessages.invalidFont);
    for (const font of FONTS) expect(createPageSchema.parse({ slug: 'ok', authorFont: font }).authorFont).toBe(font);
    expect(FONTS).toHaveLength(32);
    expect(firstMessage(createPageSchema.safeParse({ slug: 'ok', textAlignment: 'right' }))).toBe(PageMessages.invalidAlignment);
  });

  it('caps every text', () => {
    const tooLong: Record<string, string> = {
      title: 'x'.repeat(PAGE_LIMITS.titleMax + 1),
      subtext: 'x'.repeat(PAGE_LIMITS.subtextMax + 1),
      authorName: 'x'.repeat(PAGE_LIMITS.shortText + 1),
      buttonText: 'x'.repeat(PAGE_LIMITS.buttonText + 1),
      thankYouHeadline: 'x'.repeat(PAGE_LIMITS.headline + 1),
      thankYouSubtext: 'x'.repeat(PAGE_LIMITS.paragraph + 1),
      thankYouButtonText: 'x'.repeat(PAGE_LIMITS.buttonText + 1),
      customCodeSnippet: 'x'.repeat(PAGE_LIMITS.customCode + 1),
      metaTitle: 'x'.repeat(PAGE_LIMITS.titleMax + 1),
      metaDescription: 'x'.repeat(PAGE_LIMITS.metaDescription + 1),
      imageUrl: `https://example.com/${'x'.repeat(PAGE_LIMITS.url)}`,
    };
    for (const [field, value] of Object.entries(tooLong)) {
      expect({ field, ok: createPageSchema.safeParse({ slug: 'ok', [field]: value }).success }).toEqual({ field, ok: false });
    }
  });

  it('checks tracking ids, and takes empty ones as none', () => {
    expect(createPageSchema.parse({ slug: 'ok', facebookPixelId: '1234567890', googleAnalyticsId: 'G-ABC1234' })).toMatchObject({
      facebookPixelId: '1234567890',
      googleAnalyticsId: 'G-ABC1234',
    });
    expect(createPageSchema.safeParse({ slug: 'ok', facebookPixelId: 'abc' }).success).toBe(false);
    expect(createPageSchema.safeParse({ slug: 'ok', googleAnalyticsId: '<script>' }).success).toBe(false);
    expect(createPageSchema.parse({ slug: 'ok', facebookPixelId: '', googleAnalyticsId: '' })).toMatchObject({ facebookPixelId: null, googleAnalyticsId: null });
  });

  it('takes blank optional texts as none', () => {
    expect(createPageSchema.parse({ slug: 'ok', authorName: '  ', subtext: '' })).toMatchObject({ authorName: null, subtext: null });
  });

  it('validates the fields an update sends with the same rules, and needs none of them', () => {
    expect(updatePageSchema.safeParse({}).success).toBe(true);
    expect(updatePageSchema.parse({ title: 'New' }).title).toBe('New');
    expect(firstMessage(updatePageSchema.safeParse({ slug: '' }))).toBe(PageMessages.slugRequired);
    expect(firstMessage(updatePageSchema.safeParse({ slug: 'auth' }))).toBe(PageMessages.slugReserved);
    expect(firstMessage(updatePageSchema.safeParse({ textAlignment: 'justify' }))).toBe(PageMessages.invalidAlignment);
  });
});

describe('conversion rate', () => {
  it('is a percentage with one decimal, 0 without views', () => {
    expect(conversionRate(0, 0)).toBe(0);
    expect(conversionRate(0, 5)).toBe(0);
    expect(conversionRate(8, 1)).toBe(12.5);
    expect(conversionRate(3, 1)).toBe(33.3);
    expect(conversionRate(3, 2)).toBe(66.7);
    // More sign-ups than views (a visitor with two addresses) is shown as 100 %, never more.
    expect(conversionRate(2, 3)).toBe(100);
    expect(conversionRate(3, 3)).toBe(100);
    expect(formatConversionRate(0, 0)).toBe('0%');
    expect(formatConversionRate(8, 1)).toBe('12.5%');
    expect(formatConversionRate(10, 1)).toBe('10.0%');
  });
});

describe('updatePageSchema', () => {
  it('keeps only the fields a request sends: no defaults fill the rest', () => {
    const parsed = updatePageSchema.parse({ title: 'New title' });
    expect(parsed).toEqual({ title: 'New title' });
    expect(updatePageSchema.safeParse({ slug: 'Bad Slug' }).success).toBe(false);
    expect(updatePageSchema.parse({ buttonColor: '#abcdef' })).toEqual({ buttonColor: '#abcdef' });
  });
});
