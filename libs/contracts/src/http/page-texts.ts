// Page texts, formatting and the example slugs shared by the server and the SPA. No zod here: the SPA's
// dashboard imports them without the request schemas.

/** Texts the server and the SPA share for pages; users see them word for word. */
export const PageMessages = {
  slugRequired: 'Slug is required',
  slugCharacters: 'Slug can only contain lowercase letters, numbers, and hyphens',
  slugReserved: 'This URL is reserved. Please choose another one.',
  slugTaken: 'This URL is already taken. Please choose another one.',
  slugTooLong: 'Slug must be at most 60 characters',
  invalidUrl: 'Please enter a valid URL starting with http:// or https://',
  invalidColor: 'Colours must be in #rrggbb form',
  invalidFont: 'Please choose one of the available fonts',
  invalidAlignment: 'Alignment must be left or center',
  freePlanLimit: 'Free plan users can only create one landing page.',
  brandingRequiresPro: 'Removing branding requires a Pro subscription.',
  proFeature: 'This feature requires a Pro subscription.',
  pageNotFound: 'Page not found',
  templateNotFound: 'Template not found',
  verifyFirst: 'Please verify your email before creating a page.',
  /** GET /api/page/{slug} of a page paused after its owner's downgrade (404, like a missing page). */
  pagePaused: 'This page is paused',
  /** POST /api/pages/{id}/keep-live */
  keptLive: 'This page is live again. Your other pages are paused.',
  /** The creator's own privacy policy link on the consent line (editor Settings): http(s) only. */
  invalidPrivacyPolicyUrl: 'Your privacy policy URL must start with http:// or https://',
} as const;

/** The Trash: a deleted page waits there {@link TRASH_DAYS} days before it and its data are removed for good. */
export const TRASH_DAYS = 14;

/** Texts of the Trash (DELETE /api/pages/{id}, GET /api/trash, POST /api/pages/{id}/restore, DELETE /api/trash/{id}). */
export const TrashTexts = {
  /** DELETE /api/pages/{id}: the page went to the Trash. */
  moved: `Page moved to the Trash. It is removed for good after ${TRASH_DAYS} days.`,
  restored: 'Page restored',
  deletedForever: 'Page deleted forever',
  /** POST /api/pages/{id}/restore by a Free owner who has another active page (403). */
  freePlanRestore: 'Free plan users can only have one active landing page. Delete your other page or upgrade to Pro to restore this one.',
  /** POST /api/pages/{id}/restore or DELETE /api/trash/{id} of a page that is not in the owner's Trash (404). */
  notInTrash: 'This page is not in your Trash.',
} as const;

/**
 * What happens to pages when Pro ends (Free allows one page): a Free owner keeps ONE page live (the oldest, until they
 * choose another with POST /api/pages/{id}/keep-live); the others are paused — their public URL answers
 * 404 'This page is paused', they take no sign-ups, and their leads are removed 30 days after the
 * downgrade. Pro again un-pauses every page.
 */
export const PausedPageTexts = {
  /** The public page's heading and <title>. */
  title: 'This page is paused',
  /** Under it: nothing about the page itself (no title, no creator). */
  explanation: "The creator's plan changed, so this page is not available right now.",
  /** The dashboard's badge tooltip. */
  badgeTooltip: 'Free plans keep one page live. Visitors see "This page is paused" and no sign-ups are taken. Choose "Keep this page live" or upgrade to Pro.',
} as const;

/**
 * Conversion rate: conversions / views in percent, rounded to one decimal; 0 without views, and never above
 * 100 (a visitor may sign up two addresses, and views are counted apart from leads, so the quotient can pass
 * 1 even when only leads of counted visits are given).
 */
export function conversionRate(views: number, conversions: number): number {
  if (!views) return 0;
  return Math.min(100, Math.round((conversions / views) * 1000) / 10);
}

/** The badge text: '12.5%', or '0%' without views. */
export function formatConversionRate(views: number, conversions: number): string {
  return views ? `${conversionRate(views, conversions).toFixed(1)}%` : '0%';
}

/**
 * The slugs of Plink's own example pages (see examples.ts): served to visitors like any page, but no
 * creator may take them.
 */
export const EXAMPLE_SLUGS: readonly string[] = ['photo-guide', 'startupwkly', 'saas-waitlist'];

export function isExampleSlug(slug: string): boolean {
  return EXAMPLE_SLUGS.includes(slug.toLowerCase());
}

/** The template gallery's categories (what a page is for), in the order its filter shows them. */
export const TEMPLATE_CATEGORIES = ['downloads', 'newsletters', 'waitlists', 'events', 'creators', 'businesses', 'nonprofits'] as const;
export type TemplateCategory = (typeof TEMPLATE_CATEGORIES)[number];

/** A category's name as the gallery shows it. */
export const TEMPLATE_CATEGORY_LABELS: Record<TemplateCategory, string> = {
  downloads: 'Downloads',
  newsletters: 'Newsletters',
  waitlists: 'Waitlists',
  events: 'Events',
  creators: 'Creators',
  businesses: 'Businesses',
  nonprofits: 'Nonprofits',
};

/**
 * The page templates a new page can start from (`/editor/new?template={slug}`), in the gallery's order: Plink's
 * example pages first, then the templates that are no page of their own. Only the examples are pages at their
 * slugs; the others' slugs stay free for creators.
 */
export const TEMPLATE_SLUGS: readonly string[] = [
  ...EXAMPLE_SLUGS,
  'ebook-download',
  'free-checklist',
  'webinar-signup',
  'local-meetup',
  'podcast-updates',
  'music-fan-list',
  'course-waitlist',
  'app-beta',
  'recipe-newsletter',
  'shop-discount',
  'free-consultation',
  'volunteer-signup',
  'petition',
];

export function isTemplateSlug(slug: string): boolean {
  return TEMPLATE_SLUGS.includes(slug.toLowerCase());
}

/** `/editor/new?template=blank`: "Start blank" in the gallery, the editor with every field at its default. */
export const BLANK_TEMPLATE = 'blank';
