import type { PublicPageDto } from '@plink/contracts';
import { htmlToText, truncate } from './text';
import { safeUrl } from './theme';

/**
 * What a social network's link card shows for a page: the server writes it into the og:/twitter: tags,
 * and the editor previews it after the first save. One rule for both, so the preview cannot disagree.
 */

/** The page fields the card is made of. */
export type SocialCardPage = Pick<PublicPageDto, 'title' | 'metaTitle' | 'metaDescription' | 'subtext' | 'metaImageUrl' | 'imageUrl'>;

export interface SocialCard {
  /** og:title (and the document's <title>): metaTitle, else the title, else "Plink". */
  title: string;
  /** og:description: metaDescription, else the subtext's text cut to 160 characters; null: none. */
  description: string | null;
  /** og:image, absolute: the sharing image, else the main image; null: none. */
  image: string | null;
}

export const SOCIAL_CARD_DEFAULT_TITLE = 'Plink';
const DESCRIPTION_MAX = 160;

/** An absolute http(s) URL for a page image: `/uploads/…` paths get the app's origin. */
export function absoluteUrl(url: string | null | undefined, appOrigin: string): string | null {
  const safe = safeUrl(url);
  if (!safe) return null;
  return safe.startsWith('/') ? `${appOrigin.replace(/\/+$/, '')}${safe}` : safe;
}

/** The page's description for search engines and sharing: metaDescription, else the subtext's text. */
export function pageDescription(page: Pick<SocialCardPage, 'metaDescription' | 'subtext'>): string | null {
  if (page.metaDescription?.trim()) return page.metaDescription.trim();
  const text = page.subtext ? htmlToText(page.subtext) : '';
  return text ? truncate(text, DESCRIPTION_MAX) : null;
}

/** The card of a page served from `appOrigin` (the landing pages' origin, for relative image paths). */
export function socialCard(page: SocialCardPage, appOrigin: string): SocialCard {
  return {
    title: page.metaTitle?.trim() || page.title.trim() || SOCIAL_CARD_DEFAULT_TITLE,
    description: pageDescription(page),
    image: absoluteUrl(page.metaImageUrl, appOrigin) ?? absoluteUrl(page.imageUrl, appOrigin),
  };
}
