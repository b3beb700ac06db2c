import { z } from 'zod';
import { hasForbiddenCharacters, notAllowedCharactersMessage, plainText } from './text';
import { PageMessages, isExampleSlug, type TemplateCategory } from './page-texts';
import { ConfirmTexts } from './leads';

// Texts and formatting without zod live in page-texts.ts, so screens that need only them stay light.
export * from './page-texts';

/** The fonts a creator can choose for title, description and author: web fonts first, then system fonts. */
export const FONTS = [
  'Inter', 'Roboto', 'Open Sans', 'Lato', 'Montserrat', 'Poppins', 'Raleway', 'Merriweather', 'Playfair Display',
  'Nunito', 'Oswald', 'Source Sans Pro', 'Ubuntu', 'Rubik', 'Work Sans', 'PT Sans', 'Noto Sans', 'Quicksand',
  'Titillium Web', 'Fira Sans', 'Space Grotesk', 'Arial', 'Helvetica', 'Times New Roman', 'Georgia', 'Verdana',
  'Tahoma', 'Trebuchet MS', 'Courier New', 'Lucida Console', 'Palatino Linotype', 'Impact',
] as const;
export type Font = (typeof FONTS)[number];

/**
 * Slugs that collide with the app's own routes and files: a page may never take one.
 * Compared lower-case; `{host}/{slug}` must keep reaching the app for these.
 */
export const RESERVED_SLUGS: readonly string[] = [
  'api', 'auth', 'dashboard', 'settings', 'editor', 'stats', 'checkout', 'p', 'uploads', 'terms', 'privacy',
  'verify-email', 'verify-prompt', 'forgot-password', 'reset-password', 'assets', 'favicon.ico', 'robots.txt',
  'sitemap.xml', 'health', 'login', 'logout', 'register', 'signup', 'admin', 'pages', 'page', 'static', 'public',
  'examples', 'pricing', 'features', 'help', 'support', 'about', 'blog', 'docs', 'index', 'index.html', 'www',
  'mail', 'webhooks', 'stripe', 'billing', 'account', 'new', 'null', 'undefined', 'manifest.json', 'sw.js', 'fonts',
  'metrics',
];

export function isReservedSlug(slug: string): boolean {
  return RESERVED_SLUGS.includes(slug.toLowerCase());
}

/** What a page's slug can look like in a URL (any case: `/My-Page` finds `my-page`). */
const SLUG_IN_PATH = /^[A-Za-z0-9-]{1,60}$/;
/** A path segment that names a file (`robots.txt`). */
const FILE_NAME = /\.[a-z0-9]{1,8}$/i;

/** Whether a URL path segment may name a page: a slug's shape, any case, not reserved. Anything else is never looked up. */
export function mayBePageSlug(segment: string): boolean {
  return SLUG_IN_PATH.test(segment) && !isReservedSlug(segment);
}

/** Whether a URL path segment names a file (`/robots.txt`): never a page. */
export function isFileName(segment: string): boolean {
  return FILE_NAME.test(segment);
}

export const PAGE_LIMITS = {
  slugMax: 60,
  titleMax: 200,
  /** Rich text may embed images as data (each ≤ 2 MB): the cap is generous on purpose. */
  subtextMax: 6_000_000,
  shortText: 100,
  buttonText: 60,
  headline: 200,
  paragraph: 1_000,
  metaDescription: 500,
  url: 2_048,
  customCode: 20_000,
  trackingId: 40,
  /** The delivery e-mail's sender display name (a `From:` header's name: short). */
  emailSenderName: 100,
  /** An e-mail address (RFC 5321's practical limit). */
  emailAddress: 254,
  /** The delivery e-mail's subject line. */
  emailSubject: 200,
  /**
   * The delivery e-mail's rich text: a short note above the file button. Far below the page text's cap: inline
   * images make e-mails large and spam-like, so a body is words and links, perhaps a small image.
   */
  emailBody: 20_000,
} as const;

/**
 * The page's delivery e-mail (the one a visitor gets with the file link), and what each field falls back to.
 * The `From:` address is always the install's MAIL_FROM (deliverability); only its display name is the creator's.
 */
export const DeliveryEmailTexts = {
  /** The e-mail's heading in the editor. */
  sectionTitle: 'Delivery e-mail',
  senderNameHelp: "The name visitors see the e-mail come from. Empty: your author name, else your username.",
  replyToHelp: 'Where replies go. Empty: the e-mail address of your account.',
  subjectHelp: 'Empty: “Your download: <page title>”.',
  bodyHelp: 'A short note above the download button. Empty: “Thanks for signing up … Here is the file you asked for.”',
  /** A sender name or subject with a line break: it would end the header and start another (header injection). */
  oneLine: (label: string) => `${label} must be on one line (no line breaks)`,
  invalidReplyTo: 'Reply-to must be a valid email address',
  testSent: (address: string) => `Test e-mail sent to ${address}`,
  /** POST /api/pages/{id}/test-email: only to a verified address of the creator's own. */
  testNeedsVerified: 'Please verify your email before sending yourself a test.',
  testTooMany: 'You have sent several test e-mails in a short time. Please wait a few minutes and try again.',
  /** The file button's label. */
  buttonLabel: 'Download file',
} as const;

/**
 * http(s) absolute URLs, or the product's own `/uploads/…` files; `label` names the field in messages.
 * With `orEmpty`, an empty (or blank) value passes too.
 */
const pageUrl = (label: string, orEmpty = false) =>
  plainText(label, { trim: true, error: PageMessages.invalidUrl })
    .max(PAGE_LIMITS.url, { error: `URLs must be at most ${PAGE_LIMITS.url} characters` })
    .refine((v) => (orEmpty && v === '') || isAllowedPageUrl(v), { error: PageMessages.invalidUrl });
export const pageUrlSchema = pageUrl('URL');

export function isAllowedPageUrl(value: string): boolean {
  if (/^\/uploads\/[A-Za-z0-9._/-]+$/.test(value) && !value.includes('..')) return true;
  try {
    const u = new URL(value);
    return (u.protocol === 'http:' || u.protocol === 'https:') && !!u.hostname;
  } catch {
    return false;
  }
}

/*
 * The optional fields below are nullable strings rather than unions with null, so a refused value
 * keeps its own message (a union would only say "Invalid input").
 */

/** An optional URL: null, or an empty or blank string, means "none". */
const optionalUrl = (label: string) =>
  pageUrl(label, true)
    .nullable()
    .optional()
    .transform((v) => (v === '' ? null : v));
/**
 * The webhook URL: an absolute http(s) URL with a host and without user:password (never an upload path).
 * Where it points is checked by the server on save (see WebhookMessages.blockedAddress).
 */
const optionalWebhookUrl = plainText('Webhook URL', { trim: true, error: PageMessages.invalidUrl })
  .max(PAGE_LIMITS.url, { error: `URLs must be at most ${PAGE_LIMITS.url} characters` })
  .refine((v) => v === '' || isWebhookUrl(v), { error: PageMessages.invalidUrl })
  .nullable()
  .optional()
  .transform((v) => (v === '' ? null : v));

export function isWebhookUrl(value: string): boolean {
  if (!URL.canParse(value)) return false;
  const u = new URL(value);
  return (u.protocol === 'http:' || u.protocol === 'https:') && !!u.hostname && !u.username && !u.password;
}

/** An optional text: null or blank means "none". Multi-line texts keep tabs and line breaks. */
const optionalText = (label: string, max: number, multiline = false) =>
  plainText(label, { multiline })
    .max(max, { error: `${label} must be at most ${max} characters` })
    .nullable()
    .optional()
    .transform((v) => (v === undefined ? undefined : v === null || v.trim() === '' ? null : v));
/**
 * Text for one line of an e-mail header (sender name, subject): a line break there would end the header and let
 * the text write headers of its own (`Bcc: …`), so it is refused with its own message before the general check
 * on control characters. Blank means "the default" (null).
 */
const optionalHeaderText = (label: string, max: number) =>
  z
    .string()
    .refine((v) => !/[\r\n]/.test(v), { error: DeliveryEmailTexts.oneLine(label), abort: true })
    .refine((v) => !hasForbiddenCharacters(v), { error: notAllowedCharactersMessage(label), abort: true })
    .max(max, { error: `${label} must be at most ${max} characters` })
    .nullable()
    .optional()
    .transform((v) => (v === undefined ? undefined : v === null || v.trim() === '' ? null : v.trim()));
/** An optional e-mail address: blank or null means "none" (the creator's own address at send time). */
const optionalEmail = (label: string, error: string) =>
  plainText(label, { trim: true, error })
    .max(PAGE_LIMITS.emailAddress, { error })
    .refine((v) => v === '' || z.email().safeParse(v).success, { error })
    .nullable()
    .optional()
    .transform((v) => (v === '' ? null : v));
const color = z.string({ error: PageMessages.invalidColor }).regex(/^#[0-9a-fA-F]{6}$/, { error: PageMessages.invalidColor });
const font = z.enum(FONTS, { error: PageMessages.invalidFont });

/** The thank-you subtext a new page starts with. */
export const STANDARD_THANK_YOU_SUBTEXT = 'Check your email for your download link.';

/**
 * The thank-you subtext a visitor sees: on a double opt-in page whose creator kept the standard text (or left it
 * blank), 'Check your inbox to confirm your e-mail.'; a text the creator wrote is theirs and stays.
 */
export function shownThankYouSubtext(fields: { doubleOptIn: boolean; thankYouSubtext: string }): string {
  const own = fields.thankYouSubtext.trim();
  return fields.doubleOptIn && (own === '' || own === STANDARD_THANK_YOU_SUBTEXT) ? ConfirmTexts.thankYouSubtext : fields.thankYouSubtext;
}

export const slugSchema = plainText('Slug', { trim: true, error: PageMessages.slugRequired })
  .min(1, { error: PageMessages.slugRequired })
  .max(PAGE_LIMITS.slugMax, { error: PageMessages.slugTooLong })
  .regex(/^[a-z0-9-]+$/, { error: PageMessages.slugCharacters })
  .refine((s) => !isReservedSlug(s) && !isExampleSlug(s), { error: PageMessages.slugReserved });

/**
 * The editable fields of a page, each with its default below. Creation fills what is missing with
 * the defaults; an update changes only the fields it sends. Unknown fields are ignored.
 */
export const pageFieldsSchema = z.object({
  slug: slugSchema,
  title: plainText('Title').max(PAGE_LIMITS.titleMax, { error: `Title must be at most ${PAGE_LIMITS.titleMax} characters` }).default(''),
  subtext: optionalText('Subtext', PAGE_LIMITS.subtextMax, true),
  authorName: optionalText('Author name', PAGE_LIMITS.shortText),
  buttonText: plainText('Button text', { trim: true })
    .min(1, { error: 'Button text is required' })
    .max(PAGE_LIMITS.buttonText, { error: `Button text must be at most ${PAGE_LIMITS.buttonText} characters` })
    .default('Submit'),
  buttonColor: color.default('#000000'),
  backgroundColor: color.default('#ffffff'),
  backgroundImage: optionalUrl('Background image'),
  imageUrl: optionalUrl('Main image'),
  fileUrl: optionalUrl('File URL'),
  redirectUrl: optionalUrl('Redirect URL'),
  showUsername: z.boolean().default(true),
  useSharpCorners: z.boolean().default(false),
  hideDropShadow: z.boolean().default(false),
  webhookUrl: optionalWebhookUrl,
  customCodeSnippet: optionalText('Custom code', PAGE_LIMITS.customCode, true),
  thankYouHeadline: plainText('Thank-you headline')
    .max(PAGE_LIMITS.headline, { error: `Thank-you headline must be at most ${PAGE_LIMITS.headline} characters` })
    .default('Thank you!'),
  thankYouSubtext: plainText('Thank-you subtext', { multiline: true })
    .max(PAGE_LIMITS.paragraph, { error: `Thank-you subtext must be at most ${PAGE_LIMITS.paragraph} characters` })
    .default(STANDARD_THANK_YOU_SUBTEXT),
  thankYouButtonText: optionalText('Thank-you button text', PAGE_LIMITS.buttonText),
  thankYouButtonUrl: optionalUrl('Thank-you button URL'),
  textAlignment: z.enum(['left', 'center'], { error: PageMessages.invalidAlignment }).default('left'),
  showBranding: z.boolean().default(true),
  hidePrivacyPolicyCheckbox: z.boolean().default(false),
  /**
   * Double opt-in (any plan): a sign-up is kept `pending` and the visitor is e-mailed a link to confirm it; the
   * file e-mail and the webhook follow the confirmation.
   */
  doubleOptIn: z.boolean().default(false),
  /** Refuse addresses on throwaway domains and domains that receive no mail (editor: "Refuse throwaway addresses"). */
  refuseThrowaway: z.boolean().default(true),
  titleFont: font.default('Inter'),
  descriptionFont: font.default('Inter'),
  authorFont: font.default('Inter'),
  titleBold: z.boolean().default(true),
  descriptionBold: z.boolean().default(false),
  authorBold: z.boolean().default(false),
  metaTitle: optionalText('Meta title', PAGE_LIMITS.titleMax),
  metaDescription: optionalText('Meta description', PAGE_LIMITS.metaDescription, true),
  metaImageUrl: optionalUrl('Sharing image'),
  faviconUrl: optionalUrl('Favicon'),
  facebookPixelId: z
    .union([z.literal('').transform(() => null), z.null(), z.string().regex(/^\d{5,30}$/, { error: 'Facebook pixel id must be digits' })])
    .optional(),
  googleAnalyticsId: z
    .union([
      z.literal('').transform(() => null),
      z.null(),
      z.string().regex(/^(G|UA|AW|GT)-[A-Z0-9-]{4,30}$/, { error: 'Google Analytics id looks like G-ABC1234567' }),
    ])
    .optional(),
  /**
   * The creator's own privacy policy (editor Settings → "Your privacy policy URL"): the consent line links to it
   * instead of Plink's. An absolute http(s) URL only (never a script or an upload).
   */
  privacyPolicyUrl: plainText('Your privacy policy URL', { trim: true, error: PageMessages.invalidPrivacyPolicyUrl })
    .max(PAGE_LIMITS.url, { error: `URLs must be at most ${PAGE_LIMITS.url} characters` })
    .refine((v) => v === '' || isWebhookUrl(v), { error: PageMessages.invalidPrivacyPolicyUrl })
    .nullable()
    .optional()
    .transform((v) => (v === '' ? null : v)),
  /** Who collects the addresses (editor Settings → "Your name or business name"): 'I agree to the privacy policy of {controllerName}'. */
  controllerName: optionalText('Your name or business name', PAGE_LIMITS.shortText),
  /** The delivery e-mail's sender name; null: the author name, else the owner's username. */
  emailSenderName: optionalHeaderText('Sender name', PAGE_LIMITS.emailSenderName),
  /** Where the visitor's replies go; null: the owner's account e-mail, when the e-mail is sent. */
  emailReplyTo: optionalEmail('Reply-to', DeliveryEmailTexts.invalidReplyTo),
  /** The delivery e-mail's subject; null: “Your download: <title>” (“Your download from Plink” without a title). */
  emailSubject: optionalHeaderText('Subject', PAGE_LIMITS.emailSubject),
  /** The delivery e-mail's text above the file button, rich text sanitised as `subtext` is; null: the standard text. */
  emailBody: optionalText('Email text', PAGE_LIMITS.emailBody, true),
});

/** The delivery e-mail's fields: the test send takes them (unsaved values) with the page's button colour, title and file. */
export const DELIVERY_EMAIL_FIELDS = ['emailSenderName', 'emailReplyTo', 'emailSubject', 'emailBody'] as const;

/**
 * POST /api/pages/{id}/test-email: the delivery e-mail as the editor has it now (saved or not), sent to the
 * signed-in creator's own verified address. Validated by the page fields' own rules; what is left out is the
 * saved page's.
 */
export const testDeliveryEmailSchema = z.object({
  emailSenderName: pageFieldsSchema.shape.emailSenderName,
  emailReplyTo: pageFieldsSchema.shape.emailReplyTo,
  emailSubject: pageFieldsSchema.shape.emailSubject,
  emailBody: pageFieldsSchema.shape.emailBody,
  title: pageFieldsSchema.shape.title.unwrap().optional(),
  buttonColor: pageFieldsSchema.shape.buttonColor.unwrap().optional(),
  fileUrl: pageFieldsSchema.shape.fileUrl,
});
export type TestDeliveryEmailRequest = z.input<typeof testDeliveryEmailSchema>;
export type TestDeliveryEmailFields = z.output<typeof testDeliveryEmailSchema>;

/** POST /api/pages (every page field). @alias */
export const createPageSchema = pageFieldsSchema;
export type CreatePageRequest = z.input<typeof createPageSchema>;
export type PageFields = z.output<typeof createPageSchema>;

/**
 * GET /api/slug-availability?slug=…[&pageId=…]: whether a page could take this address now, asked while the
 * creator types it (`pageId`: the page being edited, which may keep its own). `message` is the reason it
 * cannot, in the words a save would answer.
 */
export const slugAvailabilityQuerySchema = z.object({
  slug: z.string(),
  pageId: z.coerce.number().int().positive().optional(),
});
export const slugAvailabilitySchema = z.object({ slug: z.string(), available: z.boolean(), message: z.string().nullable() });
export type SlugAvailabilityDto = z.infer<typeof slugAvailabilitySchema>;

/** Page fields a template never carries: the address (the creator picks their own) and Pro-only settings. */
export type PageTemplateExcluded = 'slug' | 'webhookUrl' | 'customCodeSnippet' | 'facebookPixelId' | 'googleAnalyticsId';

/**
 * GET /api/templates/{slug}: one of Plink's example pages as the starting values of a new page ("Use this
 * template"), images included (they stay at `/uploads/examples/…`, which any page may show).
 */
export type PageTemplateDto = Omit<PageFields, PageTemplateExcluded>;

/**
 * GET /api/templates: one card of the template gallery. `page` is the template itself (what GET
 * /api/templates/{slug} answers), so the gallery can draw each card as a miniature of the page.
 */
export interface PageTemplateEntryDto {
  slug: string;
  /** What the template is for, in a few words ("Ebook download"). */
  name: string;
  category: TemplateCategory;
  /** One sentence on when to use it. */
  description: string;
  /** The template's main image (`/uploads/…`), null without one. */
  imageUrl: string | null;
  page: PageTemplateDto;
}

/**
 * PUT /api/pages/{id}: any subset of the fields. Built from the fields without their defaults, so a
 * field the request leaves out stays as it is (a plain `.partial()` would fill in every default).
 */
export const updatePageSchema = z.object(
  Object.fromEntries(
    Object.entries(pageFieldsSchema.shape).map(([key, field]) => [
      key,
      (field instanceof z.ZodDefault ? (field.unwrap() as z.ZodType) : field).optional(),
    ]),
  ) as { [K in keyof typeof pageFieldsSchema.shape]: z.ZodOptional<z.ZodType<z.output<(typeof pageFieldsSchema.shape)[K]>, z.input<(typeof pageFieldsSchema.shape)[K]>>> },
);
export type UpdatePageRequest = z.input<typeof updatePageSchema>;

/** A field as stored and answered: one without a default is null when it is not set. */
type Stored<T> = undefined extends T ? Exclude<T, undefined> | null : T;

/** Every page field as the server stores and answers it, derived from {@link pageFieldsSchema}: declared once. */
export type StoredPageFields = { [K in keyof PageFields]-?: Stored<PageFields[K]> };

/** A page as its owner sees it (GET /api/pages, GET /api/pages/{id}): its fields, and what the server keeps. */
export interface PageDto extends StoredPageFields {
  id: number;
  userId: number;
  views: number;
  /** Confirmed leads. */
  conversions: number;
  /** Sign-ups waiting for their e-mail confirmation (double opt-in): not conversions yet. */
  pending: number;
  /**
   * Of the conversions, those that came without a view Plink counted (added through the API, or sent by the
   * plain HTML form on another site): the conversion rate leaves them out.
   */
  conversionsWithoutVisit: number;
  /**
   * Paused after the owner's downgrade ({@link PausedPageTexts}): visitors get 404 'This page is paused',
   * no sign-ups; the owner still edits it and sees its stats and leads until they are removed.
   */
  paused: boolean;
  createdAt: string;
  updatedAt: string;
}

/**
 * The page fields a visitor's page never carries: the file (e-mailed, never shown), the webhook, the author
 * settings the `author` line is made from, and the delivery e-mail (its reply-to may be the owner's address).
 */
export type OwnerOnlyPageField =
  | 'authorName'
  | 'showUsername'
  | 'fileUrl'
  | 'webhookUrl'
  | 'emailSenderName'
  | 'emailReplyTo'
  | 'emailSubject'
  | 'emailBody';

/**
 * What a visitor's page needs (GET /api/page/{slug}, and the server render): never the owner's data. Every
 * other page field, as stored; `customCodeSnippet` and the tracking ids are a Pro page's only (null otherwise)
 * and injected into the head of the public page, never run in the preview.
 */
export interface PublicPageDto extends Omit<StoredPageFields, OwnerOnlyPageField> {
  /** The author line to show (the page's author name, else the owner's username), or null when hidden. */
  author: string | null;
  /**
   * One of Plink's example pages: views are counted, but a submission stores nothing and e-mails nobody,
   * and the thank-you state says so.
   */
  isExample?: boolean;
}

/** A page in its owner's Trash (GET /api/trash). */
export interface TrashedPageDto {
  id: number;
  slug: string;
  title: string;
  deletedAt: string;
  /** When the purge removes it with its leads, analytics and uploads. */
  purgeAt: string;
}

/**
 * POST /api/pages/{id}/keep-live (no body): a Free owner with paused pages chooses the ONE page that stays
 * live; the page live before is paused. Answers the owner's pages as GET /api/pages does.
 */
export interface KeepPageLiveResponse {
  message: string;
  pages: PageDto[];
}
