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
  submitted: 'Thanks! You are on the list.',
  /** The form's token is older than 2 h (a tab left open): the form again, with a fresh token (409). */
  pressAgain: 'Please press Subscribe again.',
  /** The address is on a throwaway domain and the page refuses them (400). */
  throwawayDomain: 'Please use a permanent e-mail address.',
  /** The address's domain has neither an MX nor an A/AAAA record (400). */
  domainWithoutMail: 'This e-mail domain does not receive mail.',
} as const;

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
}

/** GET /api/pages/{id}/stats. */
export interface PageStatsDto {
  views: number;
  conversions: number;
  /** Percent, one decimal; 0 without views. */
  conversionRate: number;
  /** Newest first; at most {@link STATS_RECENT_LEADS} (the total is `conversions`). */
  leads: LeadDto[];
  /** Submissions refused since the count began, per reason (nothing of them was stored). */
  blocked: Record<BlockReason, number>;
}

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
