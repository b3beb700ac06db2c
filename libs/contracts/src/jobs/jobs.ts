import { z } from 'zod';
import { QueueName } from './queues';

/**
 * A subscription's state, as Stripe names it (plus 'none': never subscribed). An operator grant is
 * stored as 'active' with source 'operator'.
 */
export const PLAN_STATUSES = ['none', 'trialing', 'active', 'past_due', 'canceled', 'paused'] as const;
export type PlanStatus = (typeof PLAN_STATUSES)[number];

const isoDate = z.iso.datetime({ offset: true });

/** Why a page's webhook was turned off by Plink (the owner turns it back on in the editor). */
export const WEBHOOK_DISABLE_REASONS = ['gone', 'failing', 'exhausted'] as const;
export type WebhookDisableReason = (typeof WEBHOOK_DISABLE_REASONS)[number];

/** A webhook message id: `msg_` and 26 base32 characters, the `webhook-id` header. */
export const webhookMessageIdSchema = z.string().regex(/^msg_[a-z0-9]{26}$/);

/**
 * Job contracts: the payload schema is bound to the job's name, so a producer cannot pick
 * another payload shape, and a consumer parses what Redis gives it (Redis JSON is untrusted).
 * Payloads carry ids and a version; the worker reloads what it needs.
 */
export const JOBS = {
  /** Send the e-mail-verification link to a freshly registered (or re-requesting) user. */
  'email.verification': {
    queue: QueueName.Email,
    schema: z.object({
      v: z.literal(1),
      userId: z.number().int().positive(),
      /** The verification token, sealed with the platform secret (only its hash is stored). */
      sealedToken: z.string().min(1).max(1000),
    }),
  },
  /** Send the password-reset link. */
  'email.password-reset': {
    queue: QueueName.Email,
    schema: z.object({
      v: z.literal(1),
      userId: z.number().int().positive(),
      sealedToken: z.string().min(1).max(1000),
    }),
  },
  /** E-mail a visitor the file link of the page they signed up on (ids only: the worker reloads). */
  'email.file-delivery': {
    queue: QueueName.Email,
    schema: z.object({ v: z.literal(1), leadId: z.number().int().positive() }),
  },
  /**
   * Tell a user their Pro plan started (an operator grant or a Stripe subscription): until when, if it ends.
   * `trial`: it is the free trial, which ends at `until` (the e-mail says so).
   */
  'email.pro-started': {
    queue: QueueName.Email,
    schema: z.object({ v: z.literal(1), userId: z.number().int().positive(), until: isoDate.nullable(), trial: z.boolean().optional() }),
  },
  /**
   * Stripe's reminder that a trial ends in 3 days: the end date, and whether a card is on file (without one,
   * Pro ends then; the e-mail links to Settings → Subscription to add one).
   */
  'email.trial-ending': {
    queue: QueueName.Email,
    schema: z.object({ v: z.literal(1), userId: z.number().int().positive(), trialEnd: isoDate, cardOnFile: z.boolean() }),
  },
  /** A subscription payment failed (Stripe retries the card): the e-mail links to Settings → Subscription, whose 'Manage billing' opens the Billing Portal. */
  'email.payment-failed': {
    queue: QueueName.Email,
    schema: z.object({ v: z.literal(1), userId: z.number().int().positive() }),
  },
  /** Tell a page's owner that Plink turned the page's webhook off (410 Gone, or it kept failing). */
  'email.webhook-disabled': {
    queue: QueueName.Email,
    schema: z.object({ v: z.literal(1), pageId: z.number().int().positive(), reason: z.enum(WEBHOOK_DISABLE_REASONS) }),
  },
  /** Tell a user their Pro plan ended (revoked, expired, or the subscription ended). */
  'email.pro-ended': {
    queue: QueueName.Email,
    schema: z.object({ v: z.literal(1), userId: z.number().int().positive() }),
  },
  /**
   * Warn a downgraded user, once, that the leads of their paused pages will be removed on `removalAt`
   * (recorded by billing's lead-removal job about a week before; skipped when the user has no paused page).
   */
  'email.lead-removal-warning': {
    queue: QueueName.Email,
    schema: z.object({ v: z.literal(1), userId: z.number().int().positive(), removalAt: isoDate }),
  },
  /**
   * A user's plan changed (decided by billing, which owns the plan): identity stores it on the user.
   * `changedAt` orders the changes of one user: identity ignores a change older than the one it applied last.
   */
  'identity.plan-changed': {
    queue: QueueName.Identity,
    schema: z.object({
      v: z.literal(1),
      userId: z.number().int().positive(),
      isPremium: z.boolean(),
      planStatus: z.enum(PLAN_STATUSES),
      /** When the current period (or trial, or operator grant) ends; null when it does not end by itself. */
      periodEnd: isoDate.nullable(),
      stripeCustomerId: z.string().min(1).max(100).nullable(),
      stripeSubscriptionId: z.string().min(1).max(100).nullable(),
      changedAt: isoDate,
    }),
  },
  /**
   * A page owner's plan changed (identity has stored it): the pages service pauses every page but one of a
   * Free owner (un-pauses all of a Pro owner), judged from the owner's plan as identity has it when the job
   * runs (never from the job itself, so duplicates and late jobs cannot undo a newer change), and drops the
   * owner's pages from every visitor cache.
   */
  'pages.owner-plan-changed': {
    queue: QueueName.Pages,
    schema: z.object({ v: z.literal(1), userId: z.number().int().positive() }),
  },
  /**
   * The lead-removal date of a downgraded user has come (recorded once by billing): the pages service has
   * the leads of that user's paused pages removed (one 'leads.delete-contacts-for-page' per paused page).
   * Nothing happens when the user is Pro again.
   */
  'pages.remove-paused-leads': {
    queue: QueueName.Pages,
    schema: z.object({ v: z.literal(1), userId: z.number().int().positive() }),
  },
  /**
   * Turn a page's webhook off (decided by the notifications service, which delivers; the pages service owns
   * the page). Only while the page's URL is still `url`: a URL changed meanwhile is a new endpoint.
   */
  'pages.disable-webhook': {
    queue: QueueName.Pages,
    schema: z.object({
      v: z.literal(1),
      pageId: z.number().int().positive(),
      url: z.string().min(1).max(2048),
      reason: z.enum(WEBHOOK_DISABLE_REASONS),
    }),
  },
  /** End the operator grants whose time is up (a repeatable job of the billing service). */
  'billing.expire-grants': {
    queue: QueueName.Billing,
    schema: z.object({ v: z.literal(1) }),
  },
  /**
   * Walk downgraded accounts: warn a week before the leads of paused pages are removed, and have them
   * removed when their date comes (a repeatable job of the billing service).
   */
  'billing.lead-removal': {
    queue: QueueName.Billing,
    schema: z.object({ v: z.literal(1) }),
  },
  /**
   * Handle a Stripe webhook event stored by the gateway (billing.stripe_events): the worker reloads it by id,
   * re-reads the customer's subscription from Stripe and applies it. Recorded in the same transaction as the
   * stored event, so a Redis outage delays it and loses nothing.
   */
  'billing.stripe-event': {
    queue: QueueName.Billing,
    schema: z.object({ v: z.literal(1), eventId: z.string().min(1).max(255) }),
  },
  /** Add the buffered view counts to the pages (a repeatable job of the pages service). */
  'pages.flush-views': {
    queue: QueueName.Pages,
    schema: z.object({ v: z.literal(1) }),
  },
  /**
   * Remove uploaded images a page no longer shows (the page was deleted, or an image replaced or cleared).
   * Storage keys (`u{userId}/{type}-{random}.{ext}`); a key some page still uses is kept.
   */
  'pages.delete-uploads': {
    queue: QueueName.Uploads,
    schema: z.object({
      v: z.literal(1),
      keys: z
        .array(z.string().regex(/^u\d{1,12}\/[a-z]{1,20}-[A-Za-z0-9_-]{8,64}\.[a-z]{2,5}$/))
        .min(1)
        .max(20),
    }),
  },
  /**
   * Remove uploads no page ever kept: images uploaded in the editor but never saved to a page (a repeatable
   * job of the pages service, every few hours). Only uploads older than the grace period go, and only those
   * no page shows; the worker lists the store itself, so the payload carries nothing but its version.
   */
  'pages.sweep-uploads': {
    queue: QueueName.Uploads,
    schema: z.object({ v: z.literal(1) }),
  },
  /** Remove every lead (and counter) of a deleted page. */
  'leads.delete-for-page': {
    queue: QueueName.Leads,
    schema: z.object({ v: z.literal(1), pageId: z.number().int().positive() }),
  },
  /**
   * Remove the contact data (the leads: e-mail addresses) of a page paused after its owner's downgrade,
   * keeping its view and conversion counts (statistics stay). Safe to repeat.
   */
  'leads.delete-contacts-for-page': {
    queue: QueueName.Leads,
    schema: z.object({ v: z.literal(1), pageId: z.number().int().positive() }),
  },
  /** Tell a Pro user's automation tool about a new lead (Standard Webhooks signature). */
  'webhook.deliver': {
    queue: QueueName.Webhooks,
    schema: z.object({ v: z.literal(1), leadId: z.number().int().positive(), pageId: z.number().int().positive() }),
  },
  /** Send a logged webhook message again, with its own `webhook-id` (the owner's Redeliver button). */
  'webhook.redeliver': {
    queue: QueueName.Webhooks,
    schema: z.object({ v: z.literal(1), messageId: webhookMessageIdSchema }),
  },
  /** Drop delivery logs older than 30 days or beyond the 100 newest of a page (a repeatable job). */
  'webhook.clean-log': {
    queue: QueueName.Webhooks,
    schema: z.object({ v: z.literal(1) }),
  },
} as const satisfies Record<string, { queue: QueueName; schema: z.ZodType }>;

export type JobName = keyof typeof JOBS;
export type JobPayload<N extends JobName> = z.infer<(typeof JOBS)[N]['schema']>;
export type JobsOfQueue<Q extends QueueName> = {
  [N in JobName]: (typeof JOBS)[N]['queue'] extends Q ? N : never;
}[JobName];

export const JOB_NAMES = Object.keys(JOBS) as JobName[];

export function jobsOfQueue(queue: QueueName): JobName[] {
  return JOB_NAMES.filter((name) => JOBS[name].queue === queue);
}

export function isJobName(name: string): name is JobName {
  return Object.prototype.hasOwnProperty.call(JOBS, name);
}

/** What travels in Redis: the payload plus tracing metadata. */
export interface JobEnvelope<N extends JobName = JobName> {
  payload: JobPayload<N>;
  meta: { correlationId: string; recordedAt: string };
}
