import { z } from 'zod';
import type { JobRepeat } from './job-repeat';
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

const id = z.number().int().positive();
const sealedToken = z.string().min(1).max(1000);
/** Creator-written text a job carries (a page title): bounded, never trusted as markup. */
const pageTitle = z.string().max(10_000);
const absoluteOrOwnUrl = z.string().min(1).max(4096);

/** A `webhook.deliver` job: v2 carries the lead and the page it tells about; v1 (earlier releases) only their ids. */
const leadDeliverySchema = z.discriminatedUnion('v', [
  z.object({ v: z.literal(1), leadId: id, pageId: id }),
  z.object({
    v: z.literal(2),
    leadId: id,
    pageId: id,
    email: z.string().min(3).max(320),
    createdAt: isoDate,
    consentAt: isoDate.nullable(),
    page: z.object({ slug: z.string().min(1).max(200), title: pageTitle, url: z.string().min(1).max(4096) }),
    /**
     * The version (ms since the epoch) of the page's facts the capture saw saying "sends webhooks": a
     * delivery whose copy of the endpoint is older than that and says otherwise waits for the copy to
     * catch up instead of dropping the lead. Absent when not known (a page taken from the pages service
     * directly, a job of an earlier release).
     */
    factsAt: z.number().int().positive().optional(),
  }),
]);

/** The most lead deliveries one `webhook.deliver-many` job carries. */
export const WEBHOOK_DELIVERIES_PER_JOB = 50;

/** The payload of a job the outbox relay makes of several rows (see {@link RELAYED_TOGETHER}). */
export interface RelayedGroup {
  v: 1;
  /** Each row's payload, with the correlation id of the request that recorded it. */
  jobs: { payload: unknown; correlationId: string }[];
}

/** The contract of a {@link RelayedGroup} whose rows carry `member` payloads, `max` at most. */
function relayedGroupOf<T extends z.ZodType>(member: T, max: number) {
  return z.object({
    v: z.literal(1),
    jobs: z
      .array(z.object({ payload: member, correlationId: z.string().min(1).max(100) }))
      .min(1)
      .max(max),
  });
}

/**
 * Who an account e-mail goes to, as the identity service has the account when it records the e-mail (the
 * notifications service reads no account: it sends to what the job says).
 */
const recipientSchema = z.object({ userId: id, email: z.string().min(3).max(320), username: z.string().min(1).max(100) });

/**
 * The e-mails sent to an account. Producers that do not know addresses (billing) record them with the identity
 * service ('identity.account-email'), which records version 2, carrying the address and name. Version 1 names
 * the user by id only: earlier releases recorded it, and a version-1 job still queued is handed to identity by
 * the notifications worker.
 */
export const ACCOUNT_EMAILS = [
  'email.verification',
  'email.password-reset',
  'email.pro-started',
  'email.trial-ending',
  'email.payment-failed',
  'email.pro-ended',
  'email.lead-removal-warning',
  'email.webhook-disabled',
] as const;
export type AccountEmail = (typeof ACCOUNT_EMAILS)[number];

/** A page's webhook endpoint as the pages service has it (signing secrets sealed, as stored). */
const webhookEndpointStateSchema = z.object({
  url: z.string().min(1).max(2048).nullable(),
  /** The current signing secret, sealed (null before the page ever had a URL). */
  secret: z.string().min(1).max(1000).nullable(),
  /** The secret before the last rotation, sealed, and until when it still signs. */
  previousSecret: z.string().min(1).max(1000).nullable(),
  previousSecretUntil: isoDate.nullable(),
  /** False once Plink turned the webhook off (410 Gone, or it kept failing), until the owner turns it back on. */
  enabled: z.boolean(),
  /** When the current URL started receiving: failures before it do not count. */
  enabledAt: isoDate.nullable(),
});
export type WebhookEndpointState = z.infer<typeof webhookEndpointStateSchema>;

/**
 * What the leads service needs to know of a page to take a submission on it (see 'leads.page-changed').
 * `public` is the page as a visitor sees it, built by the pages service with its owner's plan applied;
 * it is kept as given (the thank-you answer and the form shown again after a refused submission).
 */
export const pageFactsSchema = z.object({
  slug: z.string().min(1).max(200),
  ownerId: z.number().int().positive(),
  ownerUsername: z.string().min(1).max(100),
  /** Paused after the owner's downgrade: submissions are refused ('This page is paused'). */
  paused: z.boolean(),
  /** The file e-mailed to each new lead (null: none); the file e-mail job carries it. */
  fileUrl: z.string().max(2048).nullable(),
  /** A Pro owner's page with its webhook on: each new lead is sent to it. */
  sendsWebhook: z.boolean(),
  public: z.record(z.string(), z.unknown()),
});
export type PageFacts = z.infer<typeof pageFactsSchema>;

/**
 * Job contracts: the payload schema is bound to the job's name, so a producer cannot pick
 * another payload shape, and a consumer parses what Redis gives it (Redis JSON is untrusted).
 * Payloads carry a version, and ids of what the worker's own service owns; what belongs to another
 * service travels in the payload (a worker reads only its own service's tables). A new payload
 * version is added beside the old one, so jobs queued before a release are still accepted.
 */
export const JOBS = {
  /**
   * Send the e-mail-verification link to a freshly registered (or re-requesting) user. The token is sealed
   * with the platform secret (only its hash is stored). v2: recorded by identity with the address.
   */
  'email.verification': {
    queue: QueueName.Email,
    schema: z.discriminatedUnion('v', [
      z.object({ v: z.literal(1), userId: id, sealedToken }),
      z.object({ v: z.literal(2), to: recipientSchema, sealedToken }),
    ]),
  },
  /** Send the password-reset link. */
  'email.password-reset': {
    queue: QueueName.Email,
    schema: z.discriminatedUnion('v', [
      z.object({ v: z.literal(1), userId: id, sealedToken }),
      z.object({ v: z.literal(2), to: recipientSchema, sealedToken }),
    ]),
  },
  /**
   * E-mail a visitor the file link of the page they signed up on. v2 (recorded by the leads service with the
   * lead) carries what the e-mail shows: the visitor's address, the page's title and file link, and the
   * page owner's name. v1 (the lead's id only) came from releases whose e-mail worker read the lead.
   */
  'email.file-delivery': {
    queue: QueueName.Email,
    schema: z.discriminatedUnion('v', [
      z.object({ v: z.literal(1), leadId: id }),
      z.object({
        v: z.literal(2),
        leadId: id,
        to: z.string().min(3).max(320),
        page: z.object({ id, title: pageTitle, fileUrl: absoluteOrOwnUrl }),
        senderName: z.string().max(100),
      }),
    ]),
  },
  /**
   * Tell a user their Pro plan started (an operator grant or a Stripe subscription): until when, if it ends.
   * `trial`: it is the free trial, which ends at `until` (the e-mail says so).
   */
  'email.pro-started': {
    queue: QueueName.Email,
    schema: z.discriminatedUnion('v', [
      z.object({ v: z.literal(1), userId: id, until: isoDate.nullable(), trial: z.boolean().optional() }),
      z.object({ v: z.literal(2), to: recipientSchema, until: isoDate.nullable(), trial: z.boolean().optional() }),
    ]),
  },
  /**
   * Stripe's reminder that a trial ends in 3 days: the end date, and whether a card is on file (without one,
   * Pro ends then; the e-mail links to Settings → Subscription to add one).
   */
  'email.trial-ending': {
    queue: QueueName.Email,
    schema: z.discriminatedUnion('v', [
      z.object({ v: z.literal(1), userId: id, trialEnd: isoDate, cardOnFile: z.boolean() }),
      z.object({ v: z.literal(2), to: recipientSchema, trialEnd: isoDate, cardOnFile: z.boolean() }),
    ]),
  },
  /** A subscription payment failed (Stripe retries the card): the e-mail links to Settings → Subscription, whose 'Manage billing' opens the Billing Portal. */
  'email.payment-failed': {
    queue: QueueName.Email,
    schema: z.discriminatedUnion('v', [z.object({ v: z.literal(1), userId: id }), z.object({ v: z.literal(2), to: recipientSchema })]),
  },
  /**
   * Tell a page's owner that Plink turned the page's webhook off (410 Gone, or it kept failing). v2 carries the
   * page as the pages service had it when it turned the webhook off (title, webhook URL) and the owner's address.
   */
  'email.webhook-disabled': {
    queue: QueueName.Email,
    schema: z.discriminatedUnion('v', [
      z.object({ v: z.literal(1), pageId: id, reason: z.enum(WEBHOOK_DISABLE_REASONS) }),
      z.object({
        v: z.literal(2),
        to: recipientSchema,
        page: z.object({ id, title: pageTitle, webhookUrl: z.string().min(1).max(2048).nullable() }),
        reason: z.enum(WEBHOOK_DISABLE_REASONS),
      }),
    ]),
  },
  /** Tell a user their Pro plan ended (revoked, expired, or the subscription ended). */
  'email.pro-ended': {
    queue: QueueName.Email,
    schema: z.discriminatedUnion('v', [z.object({ v: z.literal(1), userId: id }), z.object({ v: z.literal(2), to: recipientSchema })]),
  },
  /**
   * Warn a downgraded user, once, that the leads of their paused pages will be removed on `removalAt`
   * (recorded by billing's lead-removal job about a week before; skipped when the user has no paused page).
   */
  'email.lead-removal-warning': {
    queue: QueueName.Email,
    schema: z.discriminatedUnion('v', [
      z.object({ v: z.literal(1), userId: id, removalAt: isoDate }),
      z.object({ v: z.literal(2), to: recipientSchema, removalAt: isoDate }),
    ]),
  },
  /**
   * Address an account e-mail (the identity service owns the accounts): identity checks it is still wanted
   * (the account exists; a verification link is still needed and current, a reset link current; no
   * lead-removal warning to a user who is Pro again) and records `email` in version 2, with `content` (the
   * version-2 payload without `v` and `to`) and the account's address and name.
   */
  'identity.account-email': {
    queue: QueueName.Identity,
    schema: z.object({ v: z.literal(1), userId: id, email: z.enum(ACCOUNT_EMAILS), content: z.record(z.string(), z.unknown()) }),
  },
  /**
   * Tell the notifications service every page's webhook endpoint and its owner's plan (one
   * 'webhook.endpoint-changed' per page that has or had a webhook URL): how its copy of the endpoints is
   * filled the first time (its migration records this job). Safe to repeat.
   */
  'pages.publish-webhook-endpoints': {
    queue: QueueName.Pages,
    schema: z.object({ v: z.literal(1) }),
  },
  /**
   * The lead-removal warning of a downgraded user (billing decided it is due): the pages service, which knows
   * the paused pages, drops it when the user has none, else has identity address it.
   */
  'pages.lead-removal-warning': {
    queue: QueueName.Pages,
    schema: z.object({ v: z.literal(1), userId: id, removalAt: isoDate }),
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
   * A page owner's plan changed (identity has stored it), or identity tells the pages service an owner as it
   * has them: the pages service keeps the owner's username and plan in its own table (`changedAt` orders the
   * changes: an older one than the one kept is ignored), pauses every page but one of a Free owner
   * (un-pauses all of a Pro owner) judged from the plan it keeps, never from the job alone (so duplicates
   * and late jobs cannot undo a newer change), and drops the owner's pages from every visitor cache. The
   * owner's fields are optional: a job recorded before they existed carries the id only, and then the plan
   * kept is judged as it is.
   */
  'pages.owner-plan-changed': {
    queue: QueueName.Pages,
    schema: z.object({
      v: z.literal(1),
      userId: z.number().int().positive(),
      username: z.string().min(1).max(30).optional(),
      isPremium: z.boolean().optional(),
      /** When identity's copy of the plan last changed; null when it never did (the plan is the first one). */
      changedAt: isoDate.nullable().optional(),
    }),
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
    // A grant given "for N days" ends within 10 minutes of its time; a failed pass is tried again soon.
    repeat: { pattern: '*/10 * * * *', attempts: 3 },
  },
  /**
   * Walk downgraded accounts: warn a week before the leads of paused pages are removed, and have them
   * removed when their date comes (a repeatable job of the billing service).
   */
  'billing.lead-removal': {
    queue: QueueName.Billing,
    schema: z.object({ v: z.literal(1) }),
    // Every hour at :23: warnings and removals happen within the hour of their time.
    repeat: { pattern: '23 * * * *', attempts: 3 },
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
    // With the 1 s in-process buffer, views show within ~3 s. The next run comes 2 s later anyway: no retries.
    repeat: { every: 2_000, attempts: 1 },
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
    // At 00:00, 06:00, 12:00 and 18:00 UTC. A failed sweep (store or database away) is tried a few times, a
    // minute apart and doubling; the next one comes in 6 hours anyway.
    repeat: { pattern: '0 */6 * * *', attempts: 4, backoff: { type: 'exponential', delay: 60_000 } },
  },
  /**
   * A page changed in the pages service (created, edited, paused or live again, its webhook turned off or on,
   * its owner's plan changed) or was deleted (`page: null`): the leads service keeps the facts a submission
   * needs in its own read model. Recorded with the change (same transaction); `version` (when the change was
   * recorded, ms since the epoch) lets the read model keep the newest state whatever order the jobs run in.
   */
  'leads.page-changed': {
    queue: QueueName.Leads,
    schema: z.object({
      v: z.literal(1),
      pageId: z.number().int().positive(),
      version: z.number().int().nonnegative(),
      /** The slug the page had before this change, when it changed (caches of the old slug are dropped too). */
      formerSlug: z.string().min(1).max(200).nullable(),
      page: pageFactsSchema.nullable(),
    }),
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
  /**
   * Tell a Pro user's automation tool about a new lead (Standard Webhooks signature). v2 (recorded by the leads
   * service with the lead) carries what the `lead.created` event says: the lead (`createdAt` is the lead's own,
   * written in the same statement) and the page as the visitor saw it. v1 (ids only) came from releases whose
   * webhook worker read the lead: it is still delivered when its message is already logged (a retry).
   */
  'webhook.deliver': {
    queue: QueueName.Webhooks,
    schema: leadDeliverySchema,
  },
  /**
   * Several leads' `webhook.deliver` jobs in one (the outbox relays them so, see {@link RELAYED_TOGETHER}), each
   * with the correlation id of the request that captured its lead. Their first attempts run together; the
   * messages that fail in a way worth retrying are retried together on the schedule (the ones that ended are
   * not sent again).
   */
  'webhook.deliver-many': {
    queue: QueueName.Webhooks,
    schema: relayedGroupOf(leadDeliverySchema, WEBHOOK_DELIVERIES_PER_JOB),
  },
  /**
   * A page's webhook endpoint changed (its URL saved, its secret rotated, the webhook turned on or off, the
   * page deleted: `endpoint` null, or the owner's plan changed): recorded by the pages service, which owns the
   * endpoint, for the notifications service's own copy, which deliveries read. `at` orders the changes of a
   * page (an older one arriving late changes nothing). `ownerIsPro` is left out when the change does not know
   * it (the copy keeps the one it has).
   */
  'webhook.endpoint-changed': {
    queue: QueueName.Webhooks,
    schema: z.object({
      v: z.literal(1),
      pageId: id,
      ownerId: id,
      at: isoDate,
      endpoint: webhookEndpointStateSchema.nullable(),
      ownerIsPro: z.boolean().optional(),
    }),
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
    // Every hour at :17.
    repeat: { pattern: '17 * * * *', attempts: 3, backoff: { type: 'fixed', delay: 60_000 }, keepCompleted: 10, keepFailed: 50 },
  },
} as const satisfies Record<string, { queue: QueueName; schema: z.ZodType; repeat?: JobRepeat }>;

export type JobName = keyof typeof JOBS;

/**
 * Jobs the outbox relay hands over together: the rows of one relay pass named as a key here go to their
 * queue as jobs named `as`, `max` at most each, whose payload is `{ v: 1, jobs: [{ payload, correlationId }] }`.
 * For jobs recorded by the thousand under load whose consumer does their work in batches anyway: one queue
 * job per lead cost the webhooks' Redis and worker more than the delivery itself (measured with
 * `npm run bench`, webhook part). A quiet moment's pass holds one row: a group of one, sent at once.
 */
export const RELAYED_TOGETHER: Partial<Record<JobName, { as: JobName; max: number }>> = {
  'webhook.deliver': { as: 'webhook.deliver-many', max: WEBHOOK_DELIVERIES_PER_JOB },
};
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
