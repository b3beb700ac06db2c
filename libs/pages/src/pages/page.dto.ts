import type { PageDto, PublicPageDto } from '@plink/contracts';
import type { Page } from './page.entity';

/** The owner data a visitor's page needs (from identity's read API). */
export interface PageOwner {
  username: string;
  isPremium: boolean;
}

const orNull = <T>(value: T | null | undefined): T | null => value ?? null;

/** A page as its owner sees it. */
export function toPageDto(page: Page, conversions: number): PageDto {
  return {
    id: page.id,
    userId: page.userId,
    slug: page.slug,
    title: page.title ?? '',
    subtext: orNull(page.subtext),
    authorName: orNull(page.authorName),
    buttonText: page.buttonText ?? 'Submit',
    buttonColor: page.buttonColor ?? '#000000',
    backgroundColor: page.backgroundColor ?? '#ffffff',
    backgroundImage: orNull(page.backgroundImage),
    imageUrl: orNull(page.imageUrl),
    fileUrl: orNull(page.fileUrl),
    redirectUrl: orNull(page.redirectUrl),
    showUsername: page.showUsername ?? true,
    useSharpCorners: page.useSharpCorners ?? false,
    hideDropShadow: page.hideDropShadow ?? false,
    webhookUrl: orNull(page.webhookUrl),
    customCodeSnippet: orNull(page.customCodeSnippet),
    thankYouHeadline: page.thankYouHeadline ?? 'Thank you!',
    thankYouSubtext: page.thankYouSubtext ?? 'Check your email for your download link.',
    thankYouButtonText: orNull(page.thankYouButtonText),
    thankYouButtonUrl: orNull(page.thankYouButtonUrl),
    textAlignment: page.textAlignment ?? 'left',
    showBranding: page.showBranding ?? true,
    hidePrivacyPolicyCheckbox: page.hidePrivacyPolicyCheckbox ?? false,
    titleFont: page.titleFont ?? 'Inter',
    descriptionFont: page.descriptionFont ?? 'Inter',
    authorFont: page.authorFont ?? 'Inter',
    titleBold: page.titleBold ?? true,
    descriptionBold: page.descriptionBold ?? false,
    authorBold: page.authorBold ?? false,
    metaTitle: orNull(page.metaTitle),
    metaDescription: orNull(page.metaDescription),
    metaImageUrl: orNull(page.metaImageUrl),
    faviconUrl: orNull(page.faviconUrl),
    facebookPixelId: orNull(page.facebookPixelId),
    googleAnalyticsId: orNull(page.googleAnalyticsId),
    views: Number(page.views ?? 0),
    conversions,
    createdAt: new Date(page.createdAt).toISOString(),
    updatedAt: new Date(page.updatedAt ?? page.createdAt).toISOString(),
  };
}

/**
 * What a visitor's page shows: never the owner's id, e-mail, webhook or anything private. The Pro
 * features follow the owner's plan at the time of the visit: without Pro the page carries the branding,
 * and neither custom code nor tracking ids (a downgraded owner's page stops running them).
 */
export function toPublicPage(page: Page, owner: PageOwner): PublicPageDto {
  const pro = owner.isPremium;
  const showUsername = page.showUsername ?? true;
  return {
    slug: page.slug,
    title: page.title ?? '',
    subtext: orNull(page.subtext),
    author: showUsername ? page.authorName?.trim() || owner.username : null,
    buttonText: page.buttonText ?? 'Submit',
    buttonColor: page.buttonColor ?? '#000000',
    backgroundColor: page.backgroundColor ?? '#ffffff',
    backgroundImage: orNull(page.backgroundImage),
    imageUrl: orNull(page.imageUrl),
    useSharpCorners: page.useSharpCorners ?? false,
    hideDropShadow: page.hideDropShadow ?? false,
    textAlignment: page.textAlignment ?? 'left',
    showBranding: pro ? (page.showBranding ?? true) : true,
    hidePrivacyPolicyCheckbox: page.hidePrivacyPolicyCheckbox ?? false,
    titleFont: page.titleFont ?? 'Inter',
    descriptionFont: page.descriptionFont ?? 'Inter',
    authorFont: page.authorFont ?? 'Inter',
    titleBold: page.titleBold ?? true,
    descriptionBold: page.descriptionBold ?? false,
    authorBold: page.authorBold ?? false,
    thankYouHeadline: page.thankYouHeadline ?? 'Thank you!',
    thankYouSubtext: page.thankYouSubtext ?? 'Check your email for your download link.',
    thankYouButtonText: orNull(page.thankYouButtonText),
    thankYouButtonUrl: orNull(page.thankYouButtonUrl),
    redirectUrl: orNull(page.redirectUrl),
    metaTitle: orNull(page.metaTitle),
    metaDescription: orNull(page.metaDescription),
    metaImageUrl: orNull(page.metaImageUrl),
    faviconUrl: orNull(page.faviconUrl),
    customCodeSnippet: pro ? orNull(page.customCodeSnippet) : null,
    facebookPixelId: pro ? orNull(page.facebookPixelId) : null,
    googleAnalyticsId: pro ? orNull(page.googleAnalyticsId) : null,
  };
}
