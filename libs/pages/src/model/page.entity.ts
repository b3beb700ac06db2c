import { defineEntity, p } from '@mikro-orm/core';
import { PAGE_LIMITS, type Font } from '@plink/contracts';

/**
 * A landing page. `conversions` is not here: the leads service owns that count.
 * `views` is written only by the batched view flush, never per request.
 */
export const PageSchema = defineEntity({
  name: 'Page',
  schema: 'pages',
  tableName: 'pages',
  properties: {
    id: p.integer().primary().autoincrement(),
    /** The owner (identity.users.id; another service's row, so no foreign key). */
    userId: p.integer(),
    slug: p.string().length(PAGE_LIMITS.slugMax),
    title: p.string().length(PAGE_LIMITS.titleMax).default(''),
    /** Sanitised rich text (see rich-text/sanitize-rich-text.ts). */
    subtext: p.text().nullable(),
    authorName: p.string().length(PAGE_LIMITS.shortText).nullable(),
    buttonText: p.string().length(PAGE_LIMITS.buttonText).default('Submit'),
    buttonColor: p.string().length(7).default('#000000'),
    backgroundColor: p.string().length(7).default('#ffffff'),
    backgroundImage: p.string().length(PAGE_LIMITS.url).nullable(),
    imageUrl: p.string().length(PAGE_LIMITS.url).nullable(),
    fileUrl: p.string().length(PAGE_LIMITS.url).nullable(),
    redirectUrl: p.string().length(PAGE_LIMITS.url).nullable(),
    showUsername: p.boolean().default(true),
    useSharpCorners: p.boolean().default(false),
    hideDropShadow: p.boolean().default(false),
    /** Pro only (null for Free owners). */
    webhookUrl: p.string().length(PAGE_LIMITS.url).nullable(),
    /**
     * The webhook's signing secret (`whsec_…`), created when a webhook URL is first saved, stored sealed (see
     * WebhookSecretBox); never shown to visitors.
     */
    webhookSecret: p.string().length(200).nullable(),
    /** The secret before the last rotation (sealed): it still signs (beside the new one) until `webhookPreviousSecretUntil`. */
    webhookPreviousSecret: p.string().length(200).nullable(),
    webhookPreviousSecretUntil: p.datetime().nullable(),
    /** When the current URL started receiving (saved, or turned back on). */
    webhookEnabledAt: p.datetime().nullable(),
    /** Set when Plink turned the webhook off (410 Gone, or it kept failing); the owner turns it back on. */
    webhookDisabledAt: p.datetime().nullable(),
    webhookDisabledReason: p.string().$type<'gone' | 'failing' | 'exhausted'>().length(20).nullable(),
    /** Pro only (null for Free owners). */
    customCodeSnippet: p.text().nullable(),
    thankYouHeadline: p.string().length(PAGE_LIMITS.headline).default('Thank you!'),
    thankYouSubtext: p.string().length(PAGE_LIMITS.paragraph).default('Check your email for your download link.'),
    thankYouButtonText: p.string().length(PAGE_LIMITS.buttonText).nullable(),
    thankYouButtonUrl: p.string().length(PAGE_LIMITS.url).nullable(),
    textAlignment: p.string().$type<'left' | 'center'>().length(6).default('left'),
    showBranding: p.boolean().default(true),
    hidePrivacyPolicyCheckbox: p.boolean().default(false),
    /** Double opt-in: sign-ups wait for the visitor's e-mail confirmation (see 'page.changed': `public.doubleOptIn`). */
    doubleOptIn: p.boolean().default(false),
    refuseThrowaway: p.boolean().default(true),
    titleFont: p.string().$type<Font>().length(40).default('Inter'),
    descriptionFont: p.string().$type<Font>().length(40).default('Inter'),
    authorFont: p.string().$type<Font>().length(40).default('Inter'),
    titleBold: p.boolean().default(true),
    descriptionBold: p.boolean().default(false),
    authorBold: p.boolean().default(false),
    metaTitle: p.string().length(PAGE_LIMITS.titleMax).nullable(),
    metaDescription: p.string().length(PAGE_LIMITS.metaDescription).nullable(),
    metaImageUrl: p.string().length(PAGE_LIMITS.url).nullable(),
    faviconUrl: p.string().length(PAGE_LIMITS.url).nullable(),
    facebookPixelId: p.string().length(PAGE_LIMITS.trackingId).nullable(),
    googleAnalyticsId: p.string().length(PAGE_LIMITS.trackingId).nullable(),
    /** The creator's own privacy policy and name, for the consent line (see pageFieldsSchema). */
    privacyPolicyUrl: p.string().length(PAGE_LIMITS.url).nullable(),
    controllerName: p.string().length(PAGE_LIMITS.shortText).nullable(),
    /** The delivery e-mail (see pageFieldsSchema): null is the standard value of each. */
    emailSenderName: p.string().length(PAGE_LIMITS.emailSenderName).nullable(),
    emailReplyTo: p.string().length(PAGE_LIMITS.emailAddress).nullable(),
    emailSubject: p.string().length(PAGE_LIMITS.emailSubject).nullable(),
    /** Sanitised rich text, as `subtext`. */
    emailBody: p.text().nullable(),
    views: p.bigint('number').default(0),
    /**
     * Set while the page is paused: its owner's Pro plan ended and this is not the one page a Free plan keeps
     * live (see pages/pause-rules.ts). Only the pages worker's plan rule and keep-live write it.
     */
    pausedAt: p.datetime().nullable(),
    /**
     * Set while the page is in the Trash (deleted by its owner): it is gone for visitors and every copy, its slug stays
     * held, and the purge removes it with its data 14 days later (TRASH_DAYS) unless it is restored.
     */
    deletedAt: p.datetime().nullable(),
    /** One of Plink's example pages (owned by the examples account; made by a migration, never by a creator). */
    isExample: p.boolean().default(false),
    createdAt: p.datetime().onCreate(() => new Date()),
    updatedAt: p.datetime().onCreate(() => new Date()).onUpdate(() => new Date()),
  },
});
export class Page extends PageSchema.class {}
PageSchema.setClass(Page);
