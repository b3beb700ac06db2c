import type { PublicPageDto } from '@plink/contracts';

/** The words of the consent checkbox's label around its link (the link's own words: `linkText`). */
const CONSENT_BEFORE = 'I agree to the ';
const CONSENT_LINK = 'privacy policy';
/** Where the label's link points without the creator's own policy (a path on the page's own host: Plink's). */
const PRIVACY_HREF = '/privacy';

/** The consent checkbox as a page shows it: its label in parts, and the whole label as one text. */
export interface ConsentStatement {
  /** The label's words before the link. */
  before: string;
  /** The link's words. */
  linkText: string;
  /** The link's `href` as written in the page: the creator's own policy (absolute http/https), else Plink's `/privacy`. */
  privacyHref: string;
  /** The link leaves Plink for the creator's own site (opened with `rel="noopener noreferrer nofollow"`). */
  external: boolean;
  /** The label exactly as the visitor reads it: `before` followed by `linkText`. */
  text: string;
}

/** The creator's own policy URL when it is one a page may link (absolute http or https), else null. */
function ownPolicyUrl(value: string | null | undefined): string | null {
  const url = value?.trim();
  if (!url || !URL.canParse(url)) return null;
  const { protocol } = new URL(url);
  return protocol === 'http:' || protocol === 'https:' ? url : null;
}

/**
 * The consent statement a page shows its visitors, or null when it shows none (the creator hid the privacy
 * checkbox). With the creator's own privacy policy URL the link goes there, and with their name too it reads
 * 'I agree to the privacy policy of {controllerName}' (the creator is who collects the addresses); without
 * a URL it is Plink's text and link. The landing page draws its checkbox's label from this and only this,
 * and a lead records what it answers for the page it was given on, so the recorded text is the one the
 * visitor read.
 */
export function consentStatement(
  page: Pick<PublicPageDto, 'hidePrivacyPolicyCheckbox'> & Partial<Pick<PublicPageDto, 'privacyPolicyUrl' | 'controllerName'>>,
): ConsentStatement | null {
  if (page.hidePrivacyPolicyCheckbox) return null;
  const own = ownPolicyUrl(page.privacyPolicyUrl);
  if (!own) return { before: CONSENT_BEFORE, linkText: CONSENT_LINK, privacyHref: PRIVACY_HREF, external: false, text: CONSENT_BEFORE + CONSENT_LINK };
  const name = page.controllerName?.trim();
  const linkText = name ? `${CONSENT_LINK} of ${name}` : CONSENT_LINK;
  return { before: CONSENT_BEFORE, linkText, privacyHref: own, external: true, text: CONSENT_BEFORE + linkText };
}
