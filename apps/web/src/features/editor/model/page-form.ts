import {
  createPageSchema,
  pageFieldsSchema,
  shownThankYouSubtext,
  type CreatePageRequest,
  type PageDto,
  type PageFields,
  type PageTemplateDto,
  type PublicPageDto,
} from '@plink/contracts';

type PageFieldName = keyof typeof pageFieldsSchema.shape;

/** Every editable field of a page, in the shared schema's order. */
const PAGE_FIELDS = Object.keys(pageFieldsSchema.shape) as PageFieldName[];

/**
 * What the editor's form holds: every editable field of a page, optional texts and URLs as
 * strings ('' is "none"). The shared schema turns '' back into null on save.
 */
export type PageFormValues = { [K in PageFieldName]-?: NonNullable<PageFields[K]> };

/** The form's values from any set of page fields: what is missing or null becomes ''. */
function toFormValues(fields: Partial<Record<PageFieldName, unknown>>): PageFormValues {
  return Object.fromEntries(PAGE_FIELDS.map((field) => [field, fields[field] ?? ''])) as PageFormValues;
}

/** A new page: the schema's own defaults (pageFieldsSchema), every optional text empty. */
export function newPageFormValues(): PageFormValues {
  return { ...toFormValues(createPageSchema.parse({ slug: 'new-page' })), slug: '' };
}

/** A new page started from a template: the template's values over the defaults, and no slug yet. */
export function templateToFormValues(template: PageTemplateDto): PageFormValues {
  return { ...newPageFormValues(), ...toFormValues({ ...newPageFormValues(), ...template }), slug: '' };
}

/** An existing page's values (nulls become ''). */
export function pageToFormValues(page: PageDto): PageFormValues {
  return toFormValues(page);
}

/** The request body of a create or an update: the fields as the shared schema normalises them. */
export function formValuesToRequest(values: PageFormValues): CreatePageRequest {
  return createPageSchema.parse(values);
}

const orNull = (value: string) => (value.trim() ? value : null);

/**
 * What a visitor would see, for the live preview. The author line is the author name, else the
 * owner's username, and none when showUsername is off (as the server does). The custom code
 * snippet never runs in the preview.
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
    privacyPolicyUrl: orNull(values.privacyPolicyUrl),
    controllerName: orNull(values.controllerName),
    doubleOptIn: values.doubleOptIn,
    refuseThrowaway: values.refuseThrowaway,
    titleFont: values.titleFont,
    descriptionFont: values.descriptionFont,
    authorFont: values.authorFont,
    titleBold: values.titleBold,
    descriptionBold: values.descriptionBold,
    authorBold: values.authorBold,
    thankYouHeadline: values.thankYouHeadline,
    // As the server shows it: a double opt-in page with the standard text asks the visitor to confirm.
    thankYouSubtext: shownThankYouSubtext(values),
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
