import type { PageTemplateDto, PublicPageDto } from '@plink/contracts';

/**
 * What a visitor would see of a page made from the template, for its miniature in the gallery: the
 * visitor's fields (missing ones null), the author line when it is shown, no custom code nor tracking.
 */
export function templatePreview(slug: string, template: PageTemplateDto): PublicPageDto {
  const { authorName, showUsername, fileUrl: _file, emailSenderName: _sender, emailReplyTo: _replyTo, emailSubject: _subject, emailBody: _body, ...shown } =
    template;
  const nulled = Object.fromEntries(Object.entries(shown).map(([field, value]) => [field, value ?? null]));
  return {
    ...(nulled as Omit<PublicPageDto, 'slug' | 'author' | 'customCodeSnippet' | 'facebookPixelId' | 'googleAnalyticsId'>),
    slug,
    author: showUsername === false ? null : authorName?.trim() || null,
    customCodeSnippet: null,
    facebookPixelId: null,
    googleAnalyticsId: null,
  };
}
