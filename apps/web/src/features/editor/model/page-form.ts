import {
  createPageSchema,
  type CreatePageRequest,
  type Font,
  type PageDto,
  type PublicPageDto,
} from '@plink/contracts';

/**
 * What the editor's form holds: every editable field of a page (SPEC §3), texts as strings ('' is
 * "none"). The tabs of this milestone edit some of them; the others keep the page's values (or the
 * defaults) so the preview and a save never lose them. The shared schema turns '' into null.
 */
export interface PageFormValues {
  slug: string;
  title: string;
  subtext: string;
  authorName: string;
  showUsername: boolean;
  buttonText: string;
  buttonColor: string;
  backgroundColor: string;
  backgroundImage: string;
  imageUrl: string;
  fileUrl: string;
  redirectUrl: string;
  useSharpCorners: boolean;
  hideDropShadow: boolean;
  webhookUrl: string;
  customCodeSnippet: string;
  thankYouHeadline: string;
  thankYouSubtext: string;
  thankYouButtonText: string;
  thankYouButtonUrl: string;
  textAlignment: 'left' | 'center';
  showBranding: boolean;
  hidePrivacyPolicyCheckbox: boolean;
  titleFont: Font;
  descriptionFont: Font;
  authorFont: Font;
  titleBold: boolean;
  descriptionBold: boolean;
  authorBold: boolean;
  metaTitle: string;
  metaDescription: string;
  metaImageUrl: string;
  faviconUrl: string;
  facebookPixelId: string;
  googleAnalyticsId: string;
}

/** A new page: the schema's own defaults (SPEC §3), every optional text empty. */
export function newPageFormValues(): PageFormValues {
  const defaults = createPageSchema.parse({ slug: 'new-page' });
  return {
    slug: '',
    title: defaults.title,
    subtext: '',
    authorName: '',
    showUsername: defaults.showUsername,
    buttonText: defaults.buttonText,
    buttonColor: defaults.buttonColor,
    backgroundColor: defaults.backgroundColor,
    backgroundImage: '',
    imageUrl: '',
    fileUrl: '',
    redirectUrl: '',
    useSharpCorners: defaults.useSharpCorners,
    hideDropShadow: defaults.hideDropShadow,
    webhookUrl: '',
    customCodeSnippet: '',
    thankYouHeadline: defaults.thankYouHeadline,
    thankYouSubtext: defaults.thankYouSubtext,
    thankYouButtonText: '',
    thankYouButtonUrl: '',
    textAlignment: defaults.textAlignment,
    showBranding: defaults.showBranding,
    hidePrivacyPolicyCheckbox: defaults.hidePrivacyPolicyCheckbox,
    titleFont: defaults.titleFont,
    descriptionFont: defaults.descriptionFont,
    authorFont: defaults.authorFont,
    titleBold: defaults.titleBold,
    descriptionBold: defaults.descriptionBold,
    authorBold: defaults.authorBold,
    metaTitle: '',
    metaDescription: '',
    metaImageUrl: '',
    faviconUrl: '',
    facebookPixelId: '',
    googleAnalyticsId: '',
  };
}

/** An existing page's values (nulls become ''). */
export function pageToFormValues(page: PageDto): PageFormValues {
  const text = (value: string | null) => value ?? '';
  return {
    slug: page.slug,
    title: page.title,
    subtext: text(page.subtext),
    authorName: text(page.authorName),
    showUsername: page.showUsername,
    buttonText: page.buttonText,
    buttonColor: page.buttonColor,
    backgroundColor: page.backgroundColor,
    backgroundImage: text(page.backgroundImage),
    imageUrl: text(page.imageUrl),
    fileUrl: text(page.fileUrl),
    redirectUrl: text(page.redirectUrl),
    useSharpCorners: page.useSharpCorners,
    hideDropShadow: page.hideDropShadow,
    webhookUrl: text(page.webhookUrl),
    customCodeSnippet: text(page.customCodeSnippet),
    thankYouHeadline: page.thankYouHeadline,
    thankYouSubtext: page.thankYouSubtext,
    thankYouButtonText: text(page.thankYouButtonText),
    thankYouButtonUrl: text(page.thankYouButtonUrl),
    textAlignment: page.textAlignment,
    showBranding: page.showBranding,
    hidePrivacyPolicyCheckbox: page.hidePrivacyPolicyCheckbox,
    titleFont: page.titleFont,
    descriptionFont: page.descriptionFont,
    authorFont: page.authorFont,
    titleBold: page.titleBold,
    descriptionBold: page.descriptionBold,
    authorBold: page.authorBold,
    metaTitle: text(page.metaTitle),
    metaDescription: text(page.metaDescription),
    metaImageUrl: text(page.metaImageUrl),
    faviconUrl: text(page.faviconUrl),
    facebookPixelId: text(page.facebookPixelId),
    googleAnalyticsId: text(page.googleAnalyticsId),
  };
}

/** The request body of a create or an update: the fields as the shared schema normalises them. */
export function formValuesToRequest(values: PageFormValues): CreatePageRequest {
  return createPageSchema.parse(values);
}

const orNull = (value: string) => (value.trim() ? value : null);

/**
 * What a visitor would see, for the live preview. The author line is the author name, else the
 * owner's username, and none when showUsername is off (as the server does). The custom code
 * snippet is never part of the preview (SPEC §2).
 */
export function formValuesToPreview(values: PageFormValues, username: string): PublicPageDto {
  return {
    slug: values.slug,
    title: values.title,
    subtext: orNull(values.subtext),
    author: values.showUsername ? values.authorName.trim() || username : null,
    buttonText: values.buttonText,
    buttonColor: values.buttonColor,
    backgroundColor: values.backgroundColor,
    backgroundImage: orNull(values.backgroundImage),
    imageUrl: orNull(values.imageUrl),
    useSharpCorners: values.useSharpCorners,
    hideDropShadow: values.hideDropShadow,
    textAlignment: values.textAlignment,
    showBranding: values.showBranding,
    hidePrivacyPolicyCheckbox: values.hidePrivacyPolicyCheckbox,
    titleFont: values.titleFont,
    descriptionFont: values.descriptionFont,
    authorFont: values.authorFont,
    titleBold: values.titleBold,
    descriptionBold: values.descriptionBold,
    authorBold: values.authorBold,
    thankYouHeadline: values.thankYouHeadline,
    thankYouSubtext: values.thankYouSubtext,
    thankYouButtonText: orNull(values.thankYouButtonText),
    thankYouButtonUrl: orNull(values.thankYouButtonUrl),
    redirectUrl: orNull(values.redirectUrl),
    metaTitle: orNull(values.metaTitle),
    metaDescription: orNull(values.metaDescription),
    metaImageUrl: orNull(values.metaImageUrl),
    faviconUrl: orNull(values.faviconUrl),
    customCodeSnippet: null,
    facebookPixelId: null,
    googleAnalyticsId: null,
  };
}
