import type { PageAnalyticsDto } from './analytics';
import { z } from 'zod';
import { plainText } from './text';

export const LeadMessages = {
  /** GET /api/pages/{id}/export while half the process's database connections already stream exports (503). */
  exportsBusy: 'Too many lead exports are running right now. Please try again in a moment.',
  invalidEmail: 'Please enter a valid email address',
  consentRequired: 'Please agree to the privacy policy to continue.',
  tooManySubmissions: 'Too many submissions from your address. Please try again in a minute.',
  pageNotFound: 'Page not found',
  /** A submission to a page paused after its owner's downgrade (404; nothing is stored). */
  pagePaused: 'This page is paused and is not taking sign-ups right now.',
  /** GET /api/pages/{id}/leads/{leadId}/consent for a lead the page does not have (404). */
  leadNotFound: 'Lead not found',
  submitted: 'Thanks! You are on the list.',
  /** The form's token is older than 2 h (a tab left open): the form again, with a fresh token (409). */
  pressAgain: 'Please press Subscribe again.',
  /** The address is on a throwaway domain and the page refuses them (400). */
  throwawayDomain: 'Please use a permanent e-mail address.',
  /** The address's domain has neither an MX nor an A/AAAA record (400). */
  domainWithoutMail: 'This e-mail domain does not receive mail.',
  /** POST /api/pages/{id}/leads/delete with a body that is not `{ "ids": [1 to 1000 lead ids] }` (400; nothing is deleted). */
  invalidLeadIds: 'Please send "ids": a list of 1 to 1000 lead ids.',
} as const;

/** The most leads one POST /api/pages/{id}/leads/delete removes. */
export const MAX_LEADS_DELETED_AT_ONCE = 1_000;

/**
 * POST /api/pages/{id}/leads/delete: the leads to remove (erasure). Ids the page does not have are left out of
 * the count (another page's lead is never touched).
 */
export const deleteLeadsSchema = z.object(
  {
    ids: z
      .array(z.number({ error: LeadMessages.invalidLeadIds }).int({ error: LeadMessages.invalidLeadIds }).positive({ error: LeadMessages.invalidLeadIds }).max(2_147_483_647, { error: LeadMessages.invalidLeadIds }), {
        error: LeadMessages.invalidLeadIds,
      })
      .min(1, { error: LeadMessages.invalidLeadIds })
      .max(MAX_LEADS_DELETED_AT_ONCE, { error: LeadMessages.invalidLeadIds }),
  },
  { error: LeadMessages.invalidLeadIds },
);
export type DeleteLeadsRequest = z.input<typeof deleteLeadsSchema>;

/** What a lead deletion answers: how many leads went. */
export interface DeleteLeadsResponse {
  deleted: number;
  message: string;
}

/** The answer's words for `n` leads deleted. */
export function leadsDeletedMessage(n: number): string {
  return n === 1 ? '1 lead deleted' : `${n} leads deleted`;
}

/**
 * Double opt-in (a page's `doubleOptIn`): the confirmation link's page and call. The link is
 * `{PUBLIC_ORIGIN}/confirm/{token}`; opening it shows a Confirm button, and only its POST confirms.
 */
export const ConfirmTexts = {
  /** The thank-you subtext of a double opt-in page whose creator kept the standard one. */
  thankYouSubtext: 'Check your inbox to confirm your e-mail.',
  pageTitle: 'Confirm your e-mail',
  explanation: 'Press the button to confirm your e-mail address.',
  button: 'Confirm',
  confirmedTitle: 'Your e-mail is confirmed',
  confirmedText: 'Thank you. Your e-mail address is confirmed.',
  fileLink: 'Open your file',
  /** An unknown token, or one of a lead that expired (7 days unconfirmed) or was removed (404). */
  unknownTitle: 'Link not valid',
  unknownToken: 'This confirmation link is not valid or has expired. Please sign up again.',
  /** Too many confirm calls from one address (429). */
  tooManyConfirms: 'Too many attempts from your address. Please try again in a minute.',
} as const;

/** POST /api/confirm/{token}: the lead is confirmed (again, for a second call); `fileUrl` when the page has a file. */
export interface ConfirmLeadResponse {
  success: true;
  fileUrl?: string;
}

/** A lead of a double opt-in page waits for its confirmation (`pending`); every other lead is `confirmed`. */
export const LEAD_STATUSES = ['pending', 'confirmed'] as const;
export type LeadStatus = (typeof LEAD_STATUSES)[number];

/**
 * How a lead reached its page: the landing page's form (`page`), embed.js on another site (`embed`), the
 * plain-HTML form posted from another site (`html`) or the API (`api`, `POST /api/v1/pages/{id}/leads`).
 * Only `page` and `embed` leads come through a view Plink counted: the only ones a conversion rate counts.
 */
export type LeadChannel = 'page' | 'embed' | 'html' | 'api';
/** Why a submission was refused, as a page's stats count them (GET /api/pages/{id}/stats `blocked`). */
export const BLOCK_REASONS = ['token', 'timing', 'honeypot', 'disposable', 'noMx', 'rateLimit'] as const;
export type BlockReason = (typeof BLOCK_REASONS)[number];

/** A visitor's submission (JSON, or the no-JavaScript form post with the same fields). */
export const submitLeadSchema = z.object({
  email: plainText('Email', { trim: true, error: LeadMessages.invalidEmail })
    .max(254, { error: LeadMessages.invalidEmail })
    .pipe(z.email({ error: LeadMessages.invalidEmail })),
  /** The privacy checkbox: must be true unless the page hides it. Form posts send "on"/"true". */
  consent: z
    .union([z.boolean(), z.enum(['on', 'true', '1', 'yes', 'false', '0', ''])])
    .optional()
    .transform((v) => v === true || v === 'on' || v === 'true' || v === '1' || v === 'yes'),
  /** Honeypot: a field humans never see. Anything in it marks the submission as a bot's. */
  website: z.string().max(2_000).optional(),
  /** The signed token the server put in the form (hidden field `formToken`): checked before anything is stored. */
  formToken: z.string().max(200).optional(),
  /** Where the visitor came from (the page's `document.referrer`), sent by the page's script; only its domain is kept. */
  referrer: z.string().max(2_048).optional().catch(undefined),
  /** The page address's query as the visitor opened it (`?ref=…&utm_source=…`), sent by the page's script. */
  query: z.string().max(2_048).optional().catch(undefined),
});
export type SubmitLeadRequest = z.input<typeof submitLeadSchema>;

/** The answer to a submission: what the page shows next. */
export interface SubmitLeadResponse {
  success: true;
  thankYouHeadline: string;
  thankYouSubtext: string;
  /** Present only when both the button text and URL are set. */
  thankYouButton: { text: string; url: string } | null;
  /** When set, the page says 'Redirecting you shortly...' and goes there after 3 s. */
  redirectUrl: string | null;
}

export interface LeadDto {
  id: number;
  email: string;
  createdAt: string;
  /** `pending`: signed up on a double opt-in page and not confirmed yet (not counted in `conversions`). */
  status: LeadStatus;
}

/** GET /api/pages/{id}/stats (the range's series and breakdowns: {@link PageAnalyticsDto}). */
export interface PageStatsDto extends PageAnalyticsDto {
  views: number;
  /** Confirmed leads (every lead of a page without double opt-in). */
  conversions: number;
  /** Leads waiting for their e-mail confirmation (double opt-in), not counted in `conversions`. */
  pending: number;
  /**
   * Of `conversions`, those that came without a view Plink counted: added through the API (`api`) and sent
   * by the plain-HTML form on other sites (`html`). Not in `conversionRate`.
   */
  conversionsWithoutVisit: { api: number; html: number };
  /** Conversions of counted views (`conversions` less `conversionsWithoutVisit`) ÷ views: percent, one decimal, at most 100; 0 without views. */
  conversionRate: number;
  /** Newest first, pending ones included; at most {@link STATS_RECENT_LEADS} (the total is `conversions` + `pending`). */
  leads: LeadDto[];
  /** Submissions refused since the count began, per reason (nothing of them was stored). */
  blocked: Record<BlockReason, number>;
}

/** A moment of a lead's life and who acted in it, as the consent record shows it. */
export interface LeadEvidenceEvent {
  /** ISO-8601. */
  at: string;
  /** The visitor's IP address then (null: not kept, LEAD_EVIDENCE=minimal or a lead from before records were kept). */
  ip: string | null;
  /** The visitor's user agent then (null: not kept). */
  userAgent: string | null;
}

/** GET /api/pages/{id}/leads/{leadId}/consent: how a lead was given, for its creator to show. */
export interface ConsentRecordDto {
  leadId: number;
  pageId: number;
  email: string;
  /** true: the page showed its consent checkbox; false: the creator hid it (no consent text shown); null: a lead from before records were kept. */
  consentShown: boolean | null;
  /** When the visitor ticked the consent checkbox (ISO-8601), or null. */
  consentAt: string | null;
  /** The consent text exactly as shown, or null when none was (or it was not recorded). */
  consentText: string | null;
  /** SHA-256 (hex) of `consentText`: the same for every lead shown the same words. */
  consentVersion: string | null;
  /** The privacy link shown beside the consent text. */
  privacyUrl: string | null;
  /** The sign-up. */
  signup: LeadEvidenceEvent;
  /** The confirmation of the address, for pages that ask for one; null when there was none. */
  confirmation: LeadEvidenceEvent | null;
}

/** The file a consent record downloads as. */
export const consentRecordFilename = (leadId: number) => `consent-record-lead-${leadId}.json`;

export const STATS_RECENT_LEADS = 100;
/** After a submission, a page with a redirect URL sends the visitor there this long after the thank-you. */
export const SUBMIT_REDIRECT_DELAY_MS = 3_000;
/**
 * The 409 answer to a submission whose form token expired (a tab left open for hours): a fresh token, good at
 * once, which the page's script sends the submission again with (once, unseen).
 */
export interface FormTokenRenewal {
  message: string;
  formToken: string;
}

/** Where a lead came from, as stored with it (null: the sign-up did not tell). */
export interface LeadSourceDto {
  /** The referring site's domain (never the page's own host). */
  referrer: string | null;
  /** The page address's `ref` and `source` query values. */
  ref: string | null;
  source: string | null;
  utmSource: string | null;
  utmMedium: string | null;
  utmCampaign: string | null;
  /** desktop, phone or tablet (null for leads taken before sources were kept). */
  device: string | null;
}

/** A lead's one-word source, by precedence `ref` > `source` > `utm_source` > referrer domain (null: direct). */
export function leadSourceLabel(s: Pick<LeadSourceDto, 'ref' | 'source' | 'utmSource' | 'referrer'>): string | null {
  return s.ref ?? s.source ?? s.utmSource ?? s.referrer ?? null;
}
