import { z } from 'zod';
import type { ApiErrorBody } from './errors';
import type { KeepPageLiveResponse, PageDto, PageTemplateDto, PageTemplateEntryDto, PublicPageDto, TrashedPageDto } from './pages';
import { FONTS, TEMPLATE_CATEGORIES } from './pages';
import type { MessageResponse, SuccessResponse, UserDto, VerifyResetTokenResponse } from './identity';
import type { ConfirmLeadResponse, ConsentRecordDto, DeleteLeadsResponse, LeadDto, PageStatsDto, SubmitLeadResponse } from './leads';
import { LEAD_STATUSES } from './leads';
import type { DailyViewsDto, LeadListItemDto, LeadsPageDto } from './analytics';
import type { UploadImageResponse } from './uploads';
import type {
  BillingPortalResponse,
  CancelSubscriptionResponse,
  ResumeSubscriptionResponse,
  SubscriptionDto,
  SubscriptionStatusResponse,
} from './billing';
import type { WebhookAttemptDto, WebhookDeliveryDto, WebhookDto, WebhookEndpointDto, WebhookTestResult } from './webhooks';
import { WEBHOOK_EVENT_TYPES } from './webhooks';
import { EmbedTexts, type EmbedPageDto } from './embed';

/*
 * The answers of the HTTP API as zod schemas: the API reference (OpenAPI, served at /api/docs) is generated
 * from them and from the request schemas beside them. The TypeScript interfaces the server and the SPA use
 * stay where they are; each schema below is checked at compile time to describe exactly its interface
 * (`Same<…>` at the bottom of this file), so the two cannot drift apart.
 *
 * `.meta({ id })` names a schema in the reference (`#/components/schemas/<id>`).
 */

const isoDate = () => z.string().meta({ format: 'date-time' });
const font = z.enum(FONTS);

/** Every error answer: `{ "message": "…" }`, in the words the SPA shows. */
export const apiErrorSchema = z.object({ message: z.string() }).meta({ id: 'ApiError', description: 'Every error answer of the API.' });

export const messageResponseSchema = z.object({ message: z.string() }).meta({ id: 'MessageResponse' });
export const successResponseSchema = z.object({ success: z.boolean(), message: z.string() }).meta({ id: 'SuccessResponse' });
export const verifyResetTokenResponseSchema = z.object({ valid: z.boolean() }).meta({ id: 'VerifyResetTokenResponse' });

export const userDtoSchema = z
  .object({
    id: z.number().int(),
    username: z.string(),
    email: z.string(),
    isVerified: z.boolean(),
    isPremium: z.boolean(),
    createdAt: isoDate(),
    pendingEmail: z.string().nullable(),
  })
  .meta({ id: 'User' });

const pageFields = {
  slug: z.string(),
  title: z.string(),
  subtext: z.string().nullable(),
  authorName: z.string().nullable(),
  buttonText: z.string(),
  buttonColor: z.string(),
  backgroundColor: z.string(),
  backgroundImage: z.string().nullable(),
  imageUrl: z.string().nullable(),
  fileUrl: z.string().nullable(),
  redirectUrl: z.string().nullable(),
  showUsername: z.boolean(),
  useSharpCorners: z.boolean(),
  hideDropShadow: z.boolean(),
  webhookUrl: z.string().nullable(),
  customCodeSnippet: z.string().nullable(),
  thankYouHeadline: z.string(),
  thankYouSubtext: z.string(),
  thankYouButtonText: z.string().nullable(),
  thankYouButtonUrl: z.string().nullable(),
  textAlignment: z.enum(['left', 'center']),
  showBranding: z.boolean(),
  hidePrivacyPolicyCheckbox: z.boolean(),
  doubleOptIn: z.boolean(),
  refuseThrowaway: z.boolean(),
  titleFont: font,
  descriptionFont: font,
  authorFont: font,
  titleBold: z.boolean(),
  descriptionBold: z.boolean(),
  authorBold: z.boolean(),
  metaTitle: z.string().nullable(),
  metaDescription: z.string().nullable(),
  metaImageUrl: z.string().nullable(),
  faviconUrl: z.string().nullable(),
  facebookPixelId: z.string().nullable(),
  googleAnalyticsId: z.string().nullable(),
  privacyPolicyUrl: z.string().nullable(),
  controllerName: z.string().nullable(),
  emailSenderName: z.string().nullable(),
  emailReplyTo: z.string().nullable(),
  emailSubject: z.string().nullable(),
  emailBody: z.string().nullable(),
};

export const pageDtoSchema = z
  .object({
    id: z.number().int(),
    userId: z.number().int(),
    ...pageFields,
    views: z.number().int(),
    conversions: z.number().int().meta({ description: 'Confirmed leads.' }),
    pending: z.number().int().meta({ description: 'Sign-ups waiting for their e-mail confirmation (double opt-in).' }),
    conversionsWithoutVisit: z
      .number()
      .int()
      .meta({ description: 'Of the conversions, those that came without a counted view (the API, the plain HTML form); not in the conversion rate.' }),
    paused: z.boolean().meta({ description: "Paused after its owner's downgrade: visitors get 404, no sign-ups." }),
    createdAt: isoDate(),
    updatedAt: isoDate(),
  })
  .meta({ id: 'Page' });

export const pageListSchema = z.array(pageDtoSchema);

/** GET /api/trash: the owner's deleted pages, newest deletion first. */
export const trashListSchema = z.array(
  z
    .object({
      id: z.number().int(),
      slug: z.string(),
      title: z.string(),
      deletedAt: isoDate(),
      purgeAt: isoDate().meta({ description: 'When the page and its data are removed for good (14 days after deletion).' }),
    })
    .meta({ id: 'TrashedPage' }),
);

const {
  slug: _slug,
  webhookUrl: _webhookUrl,
  customCodeSnippet: _customCode,
  facebookPixelId: _pixel,
  googleAnalyticsId: _analytics,
  ...templateFields
} = pageFields;
export const pageTemplateSchema = z.object(templateFields).meta({ id: 'PageTemplate' });
export const pageTemplateListSchema = z.array(
  z
    .object({
      slug: z.string(),
      name: z.string(),
      category: z.enum(TEMPLATE_CATEGORIES),
      description: z.string(),
      imageUrl: z.string().nullable(),
      page: pageTemplateSchema,
    })
    .meta({ id: 'PageTemplateEntry' }),
);

/** What a visitor's page shows: the page's fields but the owner's own (file, webhook, author settings). */
const {
  authorName: _authorName,
  fileUrl: _fileUrl,
  showUsername: _showUsername,
  webhookUrl: _publicWebhookUrl,
  emailSenderName: _emailSenderName,
  emailReplyTo: _emailReplyTo,
  emailSubject: _emailSubject,
  emailBody: _emailBody,
  ...publicFields
} = pageFields;
export const publicPageSchema = z
  .object({ ...publicFields, author: z.string().nullable(), isExample: z.boolean().optional() })
  .meta({ id: 'PublicPage' });

export const keepPageLiveResponseSchema = z.object({ message: z.string(), pages: pageListSchema }).meta({ id: 'KeepPageLiveResponse' });

export const leadDtoSchema = z
  .object({ id: z.number().int(), email: z.string(), createdAt: isoDate(), status: z.enum(LEAD_STATUSES) })
  .meta({ id: 'Lead' });
/** GET/DELETE /api/pages/{id}/protection: the page's "under attack" switch. */
export const pageProtectionSchema = z
  .object({
    underAttackUntil: z.iso
      .datetime({ offset: true })
      .nullable()
      .meta({ description: 'Until when visitors confirm by e-mail because the page received bot sign-ups; null: not under attack.' }),
  })
  .meta({ id: 'PageProtection' });
export type PageProtectionDto = z.infer<typeof pageProtectionSchema>;

export const pageStatsSchema = z
  .object({
    views: z.number().int(),
    conversions: z.number().int().meta({ description: 'Confirmed leads.' }),
    pending: z.number().int().meta({ description: 'Leads of a double opt-in page not confirmed yet (not conversions).' }),
    conversionsWithoutVisit: withoutVisitSchema('Of the conversions, those that came without a counted view; not in conversionRate.'),
    conversionRate: z.number().meta({ description: 'Conversions of counted views ÷ views: percent, one decimal, at most 100; 0 without views.' }),
    leads: z.array(leadDtoSchema).meta({ description: 'The newest 100, newest first.' }),
    blocked: z
      .object({
        token: z.number().int().meta({ description: 'No form token, a forged one, or one older than 2 h.' }),
        timing: z.number().int().meta({ description: 'Sent sooner than 2 s after the form was served.' }),
        honeypot: z.number().int().meta({ description: 'The hidden honeypot field was filled.' }),
        disposable: z.number().int().meta({ description: 'An address on a throwaway domain.' }),
        noMx: z.number().int().meta({ description: 'A domain with neither MX nor A/AAAA record.' }),
        rateLimit: z.number().int().meta({ description: 'Over the per-address rate limit (429).' }),
      })
      .meta({ description: 'Submissions refused, per reason; none of them was stored.' }),
    ...pageAnalyticsShape(),
  })
  .meta({ id: 'PageStats' });

/** Leads that came without a view Plink counted, per channel (see LeadChannel). */
function withoutVisitSchema(description: string) {
  return z
    .object({
      api: z.number().int().meta({ description: 'Added through the API (POST /api/v1/pages/{id}/leads).' }),
      html: z.number().int().meta({ description: 'Sent by the plain-HTML form on another site.' }),
    })
    .meta({ description });
}

/** The range's series, totals and breakdowns of the stats answer (see PageAnalyticsDto). */
function pageAnalyticsShape() {
  const day = z.string().meta({ description: 'A UTC day, YYYY-MM-DD' });
  const counts = { views: z.number().int(), uniques: z.number().int(), leads: z.number().int() };
  const row = z
    .object({
      value: z.string(),
      views: z.number().int(),
      leads: z.number().int().meta({ description: 'Leads with this value that came through a counted view.' }),
      conversionRate: z.number().meta({ description: 'leads ÷ views, percent, at most 100' }),
    })
    .meta({ id: 'StatsSourceRow' });
  return {
    range: z.object({ from: day, to: day }).meta({ description: 'The UTC days answered, both included.' }),
    series: z.array(z.object({ day, ...counts }).meta({ id: 'StatsDay' })).meta({ description: 'Every day of the range, oldest first.' }),
    totals: z
      .object({
        ...counts,
        leadsWithoutVisit: withoutVisitSchema('Of the leads, those that came without a counted view; in no conversion rate.'),
        conversionRate: z.number().meta({ description: 'Leads of counted views ÷ views, percent, one decimal, at most 100' }),
        visitorConversionRate: z.number().meta({ description: 'Leads of counted views ÷ unique visitors, percent, one decimal, at most 100' }),
        previous: z.object(counts).meta({ description: 'The range of the same length just before.' }),
        change: z
          .object({ views: z.number().nullable(), uniques: z.number().nullable(), leads: z.number().nullable() })
          .meta({ description: 'Percent against the previous range; null when it had none.' }),
      })
      .meta({ id: 'StatsTotals' }),
    breakdowns: z.object({ referrers: z.array(row), utmSources: z.array(row), utmCampaigns: z.array(row), devices: z.array(row) }),
  };
}

export const leadListItemSchema = z
  .object({
    id: z.number().int(),
    email: z.string(),
    createdAt: isoDate(),
    status: z.enum(LEAD_STATUSES),
    referrer: z.string().nullable(),
    ref: z.string().nullable(),
    source: z.string().nullable(),
    utmSource: z.string().nullable(),
    utmMedium: z.string().nullable(),
    utmCampaign: z.string().nullable(),
    device: z.string().nullable(),
    sourceLabel: z.string().nullable().meta({ description: 'ref > source > utm_source > referrer; null: direct' }),
  })
  .meta({ id: 'LeadListItem' });
export const leadsPageSchema = z
  .object({ leads: z.array(leadListItemSchema), total: z.number().int(), page: z.number().int(), pageSize: z.number().int() })
  .meta({ id: 'LeadsPage' });
export const dailyViewsSchema = z
  .object({
    from: z.string().meta({ description: 'The first UTC day answered (YYYY-MM-DD).' }),
    to: z.string().meta({ description: 'The last UTC day answered, today (YYYY-MM-DD).' }),
    views: z
      .record(z.string(), z.array(z.number().int()))
      .meta({ description: 'By page id: the views of each day from `from` to `to`, oldest first (0 for a day without a view); a page without a view in these days is left out.' }),
  })
  .meta({ id: 'DailyViews' });

export const deleteLeadsResponseSchema = z.object({ deleted: z.number().int(), message: z.string() }).meta({ id: 'DeleteLeadsResponse' });

const leadEvidenceEventSchema = z
  .object({
    at: isoDate(),
    ip: z.string().nullable().meta({ description: 'The IP address then; null unless the install keeps full evidence (LEAD_EVIDENCE=full).' }),
    userAgent: z.string().nullable().meta({ description: 'The browser (user agent) then; null unless the install keeps full evidence.' }),
  })
  .meta({ id: 'LeadEvidenceEvent' });
export const consentRecordSchema = z
  .object({
    leadId: z.number().int(),
    pageId: z.number().int(),
    email: z.string(),
    consentShown: z.boolean().nullable().meta({ description: 'false: the page hid its consent checkbox, no consent text was shown; null: a lead from before records were kept.' }),
    consentAt: isoDate().nullable(),
    consentText: z.string().nullable().meta({ description: 'The consent text exactly as the page showed it.' }),
    consentVersion: z.string().nullable().meta({ description: 'SHA-256 (hex) of consentText.' }),
    privacyUrl: z.string().nullable().meta({ description: 'The privacy link shown beside the consent text.' }),
    signup: leadEvidenceEventSchema,
    confirmation: leadEvidenceEventSchema.nullable().meta({ description: 'The confirmation of the address, when the page asked for one; otherwise null.' }),
  })
  .meta({ id: 'ConsentRecord' });

export const submitLeadResponseSchema = z
  .object({
    success: z.literal(true),
    thankYouHeadline: z.string(),
    thankYouSubtext: z.string(),
    thankYouButton: z.object({ text: z.string(), url: z.string() }).nullable(),
    redirectUrl: z.string().nullable(),
  })
  .meta({ id: 'SubmitLeadResponse' });

const embedTexts = z.object(Object.fromEntries(Object.keys(EmbedTexts).map((k) => [k, z.string()])) as { [K in keyof typeof EmbedTexts]: z.ZodString });
export const embedPageSchema = z
  .object({
    title: z.string(),
    subtext: z.string(),
    buttonText: z.string(),
    buttonColor: z.string(),
    buttonTextColor: z.string(),
    backgroundColor: z.string(),
    titleFont: z.string(),
    titleWeight: z.number(),
    bodyFont: z.string(),
    fontCss: z.string(),
    sharp: z.boolean(),
    shadow: z.boolean(),
    center: z.boolean(),
    consent: z.object({ before: z.string(), linkText: z.string(), url: z.string() }).nullable(),
    badge: z.string().nullable(),
    formToken: z.string(),
    submitUrl: z.string(),
    viewUrl: z.string(),
    texts: embedTexts.extend({ invalidEmail: z.string(), consentRequired: z.string() }),
  })
  .meta({ id: 'EmbedPage' });

export const confirmLeadResponseSchema = z
  .object({ success: z.literal(true), fileUrl: z.string().optional() })
  .meta({ id: 'ConfirmLeadResponse' });

export const uploadImageResponseSchema = z.object({ imageUrl: z.string() }).meta({ id: 'UploadImageResponse' });

export const subscriptionSchema = z
  .object({
    isPremium: z.boolean(),
    status: z.enum(['none', 'trialing', 'active', 'past_due', 'canceled', 'paused']),
    source: z.enum(['stripe', 'operator']).nullable(),
    trialEnd: isoDate().nullable(),
    currentPeriodEnd: isoDate().nullable(),
    cancelAtPeriodEnd: z.boolean(),
    trialAvailable: z.boolean(),
    paymentsConfigured: z.boolean(),
    canManageBilling: z.boolean(),
    downgradedAt: isoDate().nullable(),
    leadRemovalAt: isoDate().nullable(),
  })
  .meta({ id: 'Subscription' });
export const subscriptionStatusSchema = z
  .object({ hasActiveSubscription: z.boolean(), updated: z.boolean(), isPremium: z.boolean() })
  .meta({ id: 'SubscriptionStatus' });
export const checkoutVerificationSchema = z
  .object({ success: z.boolean(), isPremium: z.boolean(), hasActiveSubscription: z.boolean() })
  .meta({ id: 'CheckoutVerification' });
export const cancelSubscriptionResponseSchema = z.object({ message: z.string(), endsAt: isoDate().nullable() }).meta({ id: 'CancelSubscriptionResponse' });
export const resumeSubscriptionResponseSchema = z.object({ message: z.string(), renewsAt: isoDate().nullable() }).meta({ id: 'ResumeSubscriptionResponse' });
/** A URL to send the browser to (Stripe Checkout, the Billing Portal). */
export const redirectUrlResponseSchema = z.object({ url: z.string() }).meta({ id: 'RedirectUrl' });

export const webhookAttemptSchema = z
  .object({
    at: isoDate(),
    url: z.string(),
    status: z.number().int().nullable(),
    error: z.string().nullable(),
    durationMs: z.number(),
    response: z.string().nullable(),
  })
  .meta({ id: 'WebhookAttempt' });
export const webhookDeliverySchema = z
  .object({
    id: z.string(),
    eventType: z.enum(WEBHOOK_EVENT_TYPES),
    test: z.boolean(),
    createdAt: isoDate(),
    status: z.enum(['pending', 'delivered', 'failing', 'failed']),
    attempts: z.array(webhookAttemptSchema),
    nextAttemptAt: isoDate().nullable(),
  })
  .meta({ id: 'WebhookDelivery' });
const webhookEndpointFields = {
  url: z.string().nullable(),
  enabled: z.boolean(),
  secret: z.string().nullable().meta({ description: '`whsec_…`; for 24 h after a rotation both secrets, space-separated, the new one first.' }),
  disabledReason: z.string().nullable(),
};
export const webhookEndpointSchema = z.object(webhookEndpointFields).meta({ id: 'WebhookEndpoint' });
export const webhookSchema = z.object({ ...webhookEndpointFields, deliveries: z.array(webhookDeliverySchema) }).meta({ id: 'Webhook' });
export const webhookTestResultSchema = z.object({ delivery: webhookDeliverySchema }).meta({ id: 'WebhookTestResult' });

/** `/health/live`. */
export const livenessReportSchema = z
  .object({ status: z.literal('ok'), service: z.string(), uptimeSeconds: z.number() })
  .meta({ id: 'LivenessReport' });
/** `/health/ready` (and `/health`): 200 when `ok`, else 503. */
export const healthReportSchema = z
  .object({
    status: z.enum(['ok', 'degraded', 'draining']),
    service: z.string(),
    uptimeSeconds: z.number(),
    checks: z.object({ database: z.enum(['up', 'down']), redis: z.enum(['up', 'down']) }),
  })
  .meta({ id: 'HealthReport' });

// ---- each schema describes exactly its interface (a compile error otherwise) -------------------------------
/** True when A and B are the same type (not merely assignable one way). */
export type Same<A, B> = (<T>() => T extends A ? 1 : 2) extends <T>() => T extends B ? 1 : 2 ? true : false;
type Check<T extends true> = T;
type Out<S extends z.ZodType> = z.output<S>;

export type ApiSchemaChecks = [
  Check<Same<Out<typeof apiErrorSchema>, ApiErrorBody>>,
  Check<Same<Out<typeof messageResponseSchema>, MessageResponse>>,
  Check<Same<Out<typeof successResponseSchema>, SuccessResponse>>,
  Check<Same<Out<typeof verifyResetTokenResponseSchema>, VerifyResetTokenResponse>>,
  Check<Same<Out<typeof userDtoSchema>, UserDto>>,
  Check<Same<Out<typeof pageDtoSchema>, PageDto>>,
  // The template type is the editor's input (its optional fields may be left out); the answer always has them all.
  Check<Out<typeof pageTemplateSchema> extends PageTemplateDto ? true : false>,
  Check<Out<typeof pageTemplateListSchema>[number] extends PageTemplateEntryDto ? true : false>,
  Check<Same<Out<typeof publicPageSchema>, PublicPageDto>>,
  Check<Same<Out<typeof keepPageLiveResponseSchema>, KeepPageLiveResponse>>,
  Check<Same<Out<typeof leadDtoSchema>, LeadDto>>,
  Check<Same<Out<typeof pageStatsSchema>, PageStatsDto>>,
  Check<Same<Out<typeof leadListItemSchema>, LeadListItemDto>>,
  Check<Same<Out<typeof leadsPageSchema>, LeadsPageDto>>,
  Check<Same<Out<typeof dailyViewsSchema>, DailyViewsDto>>,
  Check<Same<Out<typeof deleteLeadsResponseSchema>, DeleteLeadsResponse>>,
  Check<Same<Out<typeof trashListSchema>[number], TrashedPageDto>>,
  Check<Same<Out<typeof consentRecordSchema>, ConsentRecordDto>>,
  Check<Same<Out<typeof submitLeadResponseSchema>, SubmitLeadResponse>>,
  Check<Same<Out<typeof embedPageSchema>, EmbedPageDto>>,
  Check<Same<Out<typeof confirmLeadResponseSchema>, ConfirmLeadResponse>>,
  Check<Same<Out<typeof uploadImageResponseSchema>, UploadImageResponse>>,
  Check<Same<Out<typeof subscriptionSchema>, SubscriptionDto>>,
  Check<Same<Out<typeof subscriptionStatusSchema>, SubscriptionStatusResponse>>,
  Check<Same<Out<typeof cancelSubscriptionResponseSchema>, CancelSubscriptionResponse>>,
  Check<Same<Out<typeof resumeSubscriptionResponseSchema>, ResumeSubscriptionResponse>>,
  Check<Same<Out<typeof redirectUrlResponseSchema>, BillingPortalResponse>>,
  Check<Same<Out<typeof webhookAttemptSchema>, WebhookAttemptDto>>,
  Check<Same<Out<typeof webhookDeliverySchema>, WebhookDeliveryDto>>,
  Check<Same<Out<typeof webhookEndpointSchema>, WebhookEndpointDto>>,
  Check<Same<Out<typeof webhookSchema>, WebhookDto>>,
  Check<Same<Out<typeof webhookTestResultSchema>, WebhookTestResult>>,
];
