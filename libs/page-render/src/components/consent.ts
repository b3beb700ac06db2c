import type { PublicPageDto } from '@plink/contracts';

/** The words of the consent checkbox's label around its link (the link's own words: `linkText`). */
const CONSENT_BEFORE = 'I agree to the ';
const CONSENT_LINK = 'privacy policy';
/** Where the label's link points, as the page writes it (a path on the page's own host). */
const PRIVACY_HREF = '/privacy';

/** The consent checkbox as a page shows it: its label in parts, and the whole label as one text. */
export interface ConsentStatement {
  /** The label's words before the link. */
  before: string;
  /** The link's words. */
  linkText: string;
  /** The link's `href` as written in the page. */
  privacyHref: string;
  /** The label exactly as the visitor reads it: `before` followed by `linkText`. */
  text: string;
}

/**
 * The consent statement a page shows its visitors, or null when it shows none (the creator hid the privacy
 * checkbox). The landing page draws its checkbox's label from this and only this, and a lead records what
 * it answers for the page it was given on, so the recorded text is the one the visitor read.
 */
export function consentStatement(page: Pick<PublicPageDto, 'hidePrivacyPolicyCheckbox'>): ConsentStatement | null {
  if (page.hidePrivacyPolicyCheckbox) return null;
  return { before: CONSENT_BEFORE, linkText: CONSENT_LINK, privacyHref: PRIVACY_HREF, text: CONSENT_BEFORE + CONSENT_LINK };
}
