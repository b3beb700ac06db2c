import type { JobPayload } from '@plink/contracts';
import type { SubmissionPage } from '../page-facts/page-facts.repository';

/** The source values a webhook delivery carries (of a VisitSource, or of a stored lead's columns). */
export interface LeadDeliverySource {
  referrer: string | null;
  utmSource: string | null;
  utmMedium: string | null;
  utmCampaign: string | null;
  device: string | null;
}

/**
 * The file e-mail of a lead (new, confirmed, or signing up again): the page's delivery e-mail as its facts say (sender name, reply-to, subject and
 * text as the creator wrote them, the owner's address as the reply-to unless they chose one), the button colour
 * and branding the visitor's page shows. Facts from before the delivery e-mail existed: the standard e-mail from
 * the owner's username.
 */
export function fileDeliveryOf(page: SubmissionPage, to: string): JobPayload<'email.file-delivery'> {
  const mail = page.deliveryEmail;
  return {
    v: 1,
    to,
    page: { id: page.id, title: page.public.title, fileUrl: page.fileUrl! },
    senderName: mail?.senderName ?? page.ownerUsername,
    replyTo: mail?.replyTo ?? null,
    subject: mail?.subject ?? null,
    bodyHtml: mail?.bodyHtml ?? null,
    buttonColor: page.public.buttonColor,
    branding: page.public.showBranding,
  };
}

/**
 * The `webhook.deliver` job of a lead (without its id and creation time, which the statement that stores or
 * confirms the lead adds): the lead and the page as the visitor saw it, the versions the capture read.
 */
export function webhookDeliveryOf(page: SubmissionPage, email: string, consentAt: Date | null, publicOrigin: string, source?: LeadDeliverySource | null) {
  return {
    // Where the lead came from (the webhook's data.source), when the lead keeps it.
    ...(source && { source: { referrer: source.referrer, utmSource: source.utmSource, utmMedium: source.utmMedium, utmCampaign: source.utmCampaign, device: source.device } }),
    v: 1 as const,
    pageId: page.id,
    email,
    consentAt: consentAt ? consentAt.toISOString() : null,
    page: { slug: page.slug, title: page.public.title, url: `${publicOrigin}/${page.slug}` },
    pageVersion: page.version,
    planVersion: page.planVersion,
  };
}
