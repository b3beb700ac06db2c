import { pageFieldsSchema, shownThankYouSubtext, type PageDto, type PageTemplateDto, type PublicPageDto } from '@plink/contracts';
import type { Page } from './page.entity';

/** The owner data a visitor's page needs (the pages service's copy of its owners). */
export interface PageOwner {
  username: string;
  isPremium: boolean;
}

type PageFieldValues = Omit<PageDto, 'id' | 'userId' | 'views' | 'conversions' | 'paused' | 'createdAt' | 'updatedAt'>;

/** The shared schema's defaults (pageFieldsSchema), for columns a row has no value in. */
const DEFAULTS: Record<string, unknown> = pageFieldsSchema.parse({ slug: 'defaults' });
const FIELD_NAMES = Object.keys(pageFieldsSchema.shape) as (keyof PageFieldValues)[];

/** Every editable field of the page: its value, else the schema's default, else null. */
function fieldsOf(page: Page): PageFieldValues {
  const row = page as unknown as Record<string, unknown>;
  return Object.fromEntries(FIELD_NAMES.map((name) => [name, row[name] ?? DEFAULTS[name] ?? null])) as PageFieldValues;
}

/** An example page's fields as a template for a new page: not its slug, nor Pro-only settings. */
export function toPageTemplate(page: Page): PageTemplateDto {
  return templateFieldsOf(fieldsOf(page));
}

/** Page fields (every one of them) as a template: not the slug, nor Pro-only settings. */
export function templateFieldsOf(fields: PageFieldValues): PageTemplateDto {
  const { slug: _slug, webhookUrl: _w, customCodeSnippet: _c, facebookPixelId: _f, googleAnalyticsId: _g, ...template } = fields;
  return template as PageTemplateDto;
}

/** Every editable field, from values a create request's schema has filled in: what it left out is null. */
export function withEveryField(values: Record<string, unknown>): PageFieldValues {
  return Object.fromEntries(FIELD_NAMES.map((name) => [name, values[name] ?? null])) as PageFieldValues;
}

/** A page as its owner sees it. */
export function toPageDto(page: Page, conversions: number, pending = 0, conversionsWithoutVisit = 0): PageDto {
  return {
    id: page.id,
    userId: page.userId,
    ...fieldsOf(page),
    views: Number(page.views ?? 0),
    conversions,
    pending,
    conversionsWithoutVisit,
    paused: !!page.pausedAt,
    createdAt: new Date(page.createdAt).toISOString(),
    updatedAt: new Date(page.updatedAt ?? page.createdAt).toISOString(),
  };
}

/**
 * What a visitor's page shows: never the owner's id, e-mail, webhook or anything private (the fields are
 * listed one by one on purpose). The Pro features follow the owner's plan at the time of the visit:
 * without Pro the page carries the branding, and neither custom code nor tracking ids (a downgraded
 * owner's page stops running them).
 */
export function toPublicPage(page: Page, owner: PageOwner): PublicPageDto {
  const pro = owner.isPremium;
  const f = fieldsOf(page);
  return {
    slug: f.slug,
    title: f.title,
    subtext: f.subtext,
    author: f.showUsername ? f.authorName?.trim() || owner.username || null : null,
    buttonText: f.buttonText,
    buttonColor: f.buttonColor,
    backgroundColor: f.backgroundColor,
    backgroundImage: f.backgroundImage,
    imageUrl: f.imageUrl,
    useSharpCorners: f.useSharpCorners,
    hideDropShadow: f.hideDropShadow,
    textAlignment: f.textAlignment,
    showBranding: pro ? f.showBranding : true,
    hidePrivacyPolicyCheckbox: f.hidePrivacyPolicyCheckbox,
    // The consent line names the creator and links their own policy when they gave one (page-render's consentStatement).
    privacyPolicyUrl: f.privacyPolicyUrl,
    controllerName: f.controllerName,
    // The leads service reads it from the page's facts (`public`): whether a sign-up waits for its confirmation.
    doubleOptIn: f.doubleOptIn,
    refuseThrowaway: f.refuseThrowaway,
    titleFont: f.titleFont,
    descriptionFont: f.descriptionFont,
    authorFont: f.authorFont,
    titleBold: f.titleBold,
    descriptionBold: f.descriptionBold,
    authorBold: f.authorBold,
    thankYouHeadline: f.thankYouHeadline,
    thankYouSubtext: shownThankYouSubtext(f),
    thankYouButtonText: f.thankYouButtonText,
    thankYouButtonUrl: f.thankYouButtonUrl,
    redirectUrl: f.redirectUrl,
    metaTitle: f.metaTitle,
    metaDescription: f.metaDescription,
    metaImageUrl: f.metaImageUrl,
    faviconUrl: f.faviconUrl,
    customCodeSnippet: pro ? f.customCodeSnippet : null,
    facebookPixelId: pro ? f.facebookPixelId : null,
    googleAnalyticsId: pro ? f.googleAnalyticsId : null,
    ...(page.isExample && { isExample: true }),
  };
}
