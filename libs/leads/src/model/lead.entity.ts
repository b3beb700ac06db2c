import { defineEntity, p } from '@mikro-orm/core';
import type { LeadChannel, LeadStatus } from '@plink/contracts';

/**
 * An e-mail address a visitor left on a page. One per page and lower-cased address
 * (unique index); `consentAt` is when the visitor ticked the privacy checkbox (null when the page hides it).
 */
export const LeadSchema = defineEntity({
  name: 'Lead',
  schema: 'leads',
  tableName: 'leads',
  properties: {
    id: p.integer().primary().autoincrement(),
    pageId: p.integer(),
    email: p.string().length(254),
    emailLower: p.string().length(254),
    consentAt: p.datetime().nullable(),
    /** The page showed a consent text (false: it hid the checkbox; null: taken before the record was kept). */
    consentShown: p.boolean().nullable(),
    /** SHA-256 (hex) of the consent text shown; the text is in `leads.consent_texts`. */
    consentVersion: p.string().length(64).nullable(),
    /** The privacy link beside the consent text, as an absolute URL. */
    privacyUrl: p.string().length(2048).nullable(),
    /** The visitor's address at sign-up (LEAD_EVIDENCE=full only). */
    signupIp: p.string().columnType('inet').nullable(),
    /** The visitor's browser at sign-up, at most 512 characters (LEAD_EVIDENCE=full only). */
    signupUserAgent: p.string().length(512).nullable(),
    /** The owner's plan version the capture read (billing's, from 'plan.changed'); null for leads taken before it was kept. */
    planVersion: p.integer().nullable(),
    /** Where the lead came from (see the 20261208 migration): the referring domain, `ref`/`source`/UTM values, device. */
    referrer: p.string().length(100).nullable(),
    ref: p.string().length(100).nullable(),
    refSource: p.string().length(100).nullable(),
    utmSource: p.string().length(100).nullable(),
    utmMedium: p.string().length(100).nullable(),
    utmCampaign: p.string().length(100).nullable(),
    device: p.string().length(8).nullable(),
    /** How it reached the page (see the 20261211 migration): `page`, `embed`, `html` or `api`; null for leads taken before. */
    channel: p.string().$type<LeadChannel>().length(5).nullable(),
    createdAt: p.datetime().onCreate(() => new Date()),
    /** `pending` until the visitor confirms on a double opt-in page; `confirmed` otherwise. */
    status: p.string().$type<LeadStatus>().length(10).default('confirmed'),
    /** When, from which address and browser the visitor confirmed (double opt-in); null otherwise. */
    confirmedAt: p.datetime().nullable(),
    confirmIp: p.string().length(45).nullable(),
    confirmUserAgent: p.string().length(500).nullable(),
    /** The last e-mail a repeated sign-up had sent (confirmation or file again): once per 10 minutes. */
    mailedAt: p.datetime().nullable(),
    /** When the one reminder to confirm was sent. */
    remindedAt: p.datetime().nullable(),
  },
});
export class Lead extends LeadSchema.class {}
LeadSchema.setClass(Lead);
