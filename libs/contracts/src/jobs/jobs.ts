import { z } from 'zod';
import { EVENTS, isEventName, eventsOfQueue, queuesOfEvent, type EventName, type EventsOfQueue } from './events';
import type { JobRepeat } from './job-repeat';
import { QueueName } from './queues';
import { PAGE_LIMITS } from '../http/pages';

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

/** An `email.file-delivery` job: what the visitor's e-mail shows (see that job). */
const fileDeliverySchema = z.object({
  v: z.literal(1),
  leadId: id.optional(),
  to: z.string().min(3).max(320),
  page: z.object({ id, title: pageTitle, fileUrl: absoluteOrOwnUrl }),
  senderName: z.string().max(100),
  replyTo: z.string().min(3).max(320).nullable().optional(),
  subject: z.string().max(200).nullable().optional(),
  bodyHtml: z.string().max(PAGE_LIMITS.emailBody).nullable().optional(),
  buttonColor: z.string().regex(/^#[0-9a-fA-F]{6}$/).optional(),
  branding: z.boolean().optional(),
  test: z.boolean().optional(),
});

/** A `webhook.deliver` job: the lead and the page it tells about (the notifications service reads neither). */
const leadDeliverySchema = z.object({
  v: z.literal(1),
  leadId: id,
  pageId: id,
  email: z.string().min(3).max(320),
  createdAt: isoDate,
  consentAt: isoDate.nullable(),
  page: z.object({ slug: z.string().min(1).max(200), title: pageTitle, url: z.string().min(1).max(4096) }),
  /**
   * The version of the page's facts the capture read (see `page.changed`): the page's endpoint changes in the
   * same transactions, so a copy of the endpoint older than this has not heard of the URL the capture saw,
   * and the delivery waits for it (one hop) instead of dropping the lead. 0: not known.
   */
  pageVersion: z.number().int().nonnegative(),
  /** The owner's plan version the capture read (see `plan.changed`): the plan in force for this lead. */
  planVersion: z.number().int().nonnegative(),
  /** Where the lead came from (the webhook's `data.source`); absent in jobs recorded before it was kept. */
  source: z
    .object({
      referrer: z.string().max(100).nullable(),
      utmSource: z.string().max(100).nullable(),
      utmMedium: z.string().max(100).nullable(),
      utmCampaign: z.string().max(100).nullable(),
      device: z.string().max(8).nullable(),
    })
    .optional(),
});

/** The most lead deliveries one `webhook.deliver-many` job carries. */
export const WEBHOOK_DELIVERIES_PER_JOB = 50;

/** The most file e-mails one `email.file-delivery-many` job carries. */
export const FILE_EMAILS_PER_JOB = 50;

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
 * service ('identity.account-email'), which records the e-mail with the address and name.
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
  'email.page-under-attack',
] as const;
export type AccountEmail = (typeof ACCOUNT_EMAILS)[number];

/**
 * Job contracts: the payload schema is bound to the job's name, so a producer cannot pick
 * another payload shape, and a consumer parses what Redis gives it (Redis JSON is untrusted).
 * These are work ("send this e-mail", "deliver this webhook"), each done by the one service whose queue
 * it is on; facts that several services keep are events (see events.ts). Payloads carry a version
 * (starting at 1), and ids of what the worker's own service owns; what belongs to another service travels
 * in the payload (a worker reads only its own service's tables). A new payload version is added beside
 * the old one, so jobs queued before a release are still accepted.
 */
export const JOBS = {
  /**
   * Send the e-mail-verification link to a freshly registered (or re-requesting) user. The token is sealed
   * with the platform secret (only its hash is stored). Recorded by identity, with the address.
   */
  'email.verification': {
    queue: QueueName.Email,
    schema: z.object({ v: z.literal(1), to: recipientSchema, sealedToken }),
  },
  /** Send the password-reset link. */
  'email.password-reset': {
    queue: QueueName.Email,
    schema: z.object({ v: z.literal(1), to: recipientSchema, sealedToken }),
  },
  /**
   * Send the link that confirms an e-mail change to the NEW address (`to.email` is that address, not the
   * account's yet): the change applies when it is opened. Recorded by identity with the change.
   */
  'email.email-change-confirm': {
    queue: QueueName.Email,
    schema: z.object({ v: z.literal(1), to: recipientSchema, sealedToken }),
  },
  /**
   * Tell the account's current address that a change of it to `newEmail` (masked: the old address may no
   * longer be its owner's) was asked for (`requested`) or has been made (`changed`).
   */
  'email.email-change-notice': {
    queue: QueueName.Email,
    schema: z.object({ v: z.literal(1), to: recipientSchema, newEmail: z.string().min(1).max(320), stage: z.enum(['requested', 'changed']) }),
  },
  /**
   * E-mail a visitor the file link of the page they signed up on. Recorded by the leads service with the
   * lead, it carries what the e-mail shows: the visitor's address, the page's title and file link, and the
   * page's delivery e-mail as its owner wrote it (see `page.changed`): the sender's display name (the `From:`
   * address stays the install's MAIL_FROM), the reply-to (the owner's own address unless they chose another),
   * subject and body (null: the standard ones; the body sanitised by the pages service), the button colour and
   * whether the page carries Plink's branding. Those are optional: jobs queued before they existed send the
   * standard e-mail. `test`: the owner's own test from the editor (no lead: `leadId` absent).
   */
  'email.file-delivery': {
    queue: QueueName.Email,
    schema: fileDeliverySchema,
  },
  /**
   * Several leads' `email.file-delivery` jobs in one (the outbox relays them so, see {@link RELAYED_TOGETHER}),
   * each with the correlation id of the request that captured its lead. Each e-mail is sent on its own; when some
   * fail, the job's progress keeps which were sent, and the retry sends only the others.
   */
  'email.file-delivery-many': {
    queue: QueueName.Email,
    schema: relayedGroupOf(fileDeliverySchema, FILE_EMAILS_PER_JOB),
  },
  /**
   * Ask a visitor to confirm their sign-up on a double opt-in page (recorded by the leads service with the
   * pending lead, again when the visitor signs up again after 10 minutes, and once as the reminder after 48
   * hours): one Confirm button to `{PUBLIC_ORIGIN}/confirm/{token}`. The token is sealed with the platform
   * secret (the leads service keeps only its hash). It carries what the e-mail shows: the page's title and the
   * creator's name (the delivery e-mail's sender name), and their reply-to.
   */
  'email.lead-confirmation': {
    queue: QueueName.Email,
    schema: z.object({
      v: z.literal(1),
      leadId: id,
      to: z.string().min(3).max(320),
      page: z.object({ id, title: pageTitle }),
      senderName: z.string().max(100),
      replyTo: z.string().min(3).max(320).nullable(),
      sealedToken,
      reminder: z.boolean(),
    }),
  },
  /**
   * Tell a user their Pro plan started (an operator grant or a Stripe subscription): until when, if it ends.
   * `trial`: it is the free trial, which ends at `until` (the e-mail says so).
   */
  'email.pro-started': {
    queue: QueueName.Email,
    schema: z.object({ v: z.literal(1), to: recipientSchema, until: isoDate.nullable(), trial: z.boolean().optional() }),
  },
  /**
   * Stripe's reminder that a trial ends in 3 days: the end date, and whether a card is on file (without one,
   * Pro ends then; the e-mail links to Settings → Subscription to add one).
   */
  'email.trial-ending': {
    queue: QueueName.Email,
    schema: z.object({ v: z.literal(1), to: recipientSchema, trialEnd: isoDate, cardOnFile: z.boolean() }),
  },
  /** A subscription payment failed (Stripe retries the card): the e-mail links to Settings → Subscription, whose 'Manage billing' opens the Billing Portal. */
  'email.payment-failed': {
    queue: QueueName.Email,
    schema: z.object({ v: z.literal(1), to: recipientSchema }),
  },
  /**
   * Tell a page's owner that Plink turned the page's webhook off (410 Gone, or it kept failing). It carries the
   * page as the pages service had it when it turned the webhook off (title, webhook URL) and the owner's address.
   */
  'email.webhook-disabled': {
    queue: QueueName.Email,
    schema: z.object({
      v: z.literal(1),
      to: recipientSchema,
      page: z.object({ id, title: pageTitle, webhookUrl: z.string().min(1).max(2048).nullable() }),
      reason: z.enum(WEBHOOK_DISABLE_REASONS),
    }),
  },
  /**
   * Tell a page's owner, once per switch, that the page receives bot sign-ups and its visitors confirm by e-mail
   * until `until` (recorded by the leads service, which sees the submissions, with identity: it knows the owner
   * by id only). The e-mail says how to end it (the editor's Settings tab).
   */
  'email.page-under-attack': {
    queue: QueueName.Email,
    schema: z.object({ v: z.literal(1), to: recipientSchema, page: z.object({ id, title: z.string().max(200) }), until: isoDate }),
  },
  /**
   * The last e-mail of a deleted account, to the address it had (recorded by identity in the transaction that
   * removes the user): it is gone, and nothing of it can be brought back.
   */
  'email.account-deleted': {
    queue: QueueName.Email,
    schema: z.object({ v: z.literal(1), to: recipientSchema }),
  },
  /** Tell a user their account export is ready: the signed download link (valid until `expiresAt`, 24 hours). */
  'email.account-export-ready': {
    queue: QueueName.Email,
    schema: z.object({ v: z.literal(1), to: recipientSchema, link: z.string().min(1).max(4096), expiresAt: isoDate }),
  },
  /** Tell a user their Pro plan ended (revoked, expired, or the subscription ended). */
  'email.pro-ended': {
    queue: QueueName.Email,
    schema: z.object({ v: z.literal(1), to: recipientSchema }),
  },
  /**
   * Warn a downgraded user, once, that the leads of their paused pages will be removed on `removalAt`
   * (recorded by billing's lead-removal job about a week before; skipped when the user has no paused page).
   */
  'email.lead-removal-warning': {
    queue: QueueName.Email,
    schema: z.object({ v: z.literal(1), to: recipientSchema, removalAt: isoDate }),
  },
  /**
   * Address an account e-mail (the identity service owns the accounts): identity checks it is still wanted
   * (the account exists; a verification link is still needed and current, a reset link current; no
   * lead-removal warning to a user who is Pro again) and records `email` with `content` (its payload
   * without `v` and `to`) and the account's address and name.
   */
  'identity.account-email': {
    queue: QueueName.Identity,
    schema: z.object({ v: z.literal(1), userId: id, email: z.enum(ACCOUNT_EMAILS), content: z.record(z.string(), z.unknown()) }),
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
   * Remove for good the pages whose 14 days in the Trash are over, each as "Delete forever" does: the page
   * (its analytics go with it), with its leads ('leads.delete-for-page') and uploads ('pages.delete-uploads')
   * following (a repeatable job of the pages service).
   */
  'pages.purge-trash': {
    queue: QueueName.Pages,
    schema: z.object({ v: z.literal(1) }),
    // Every hour at :41: a page goes within the hour after its 14 days; a failed pass is tried again soon.
    repeat: { pattern: '41 * * * *', attempts: 3, backoff: { type: 'fixed', delay: 60_000 } },
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
   * An account export, first step (recorded by identity with the export's row): the leads service writes each
   * page's leads of the user as CSV into the store (`exports/u{userId}/{exportId}/leads-{pageId}.csv`, streamed
   * from PostgreSQL's COPY), then records the pages service's step. `account` is account.json as identity wrote it.
   */
  'leads.account-export': {
    queue: QueueName.Leads,
    schema: z.object({ v: z.literal(1), exportId: z.uuid(), userId: id, account: z.record(z.string(), z.unknown()) }),
  },
  /**
   * An account export, second step: the pages service streams the ZIP into the store (account.json, and per page
   * its page.json, its uploads and the leads.csv the leads service left), then tells identity.
   */
  'pages.account-export': {
    queue: QueueName.Pages,
    schema: z.object({ v: z.literal(1), exportId: z.uuid(), userId: id, account: z.record(z.string(), z.unknown()) }),
  },
  /** An account export's ZIP is stored: identity marks the export ready and e-mails its signed link. */
  'identity.account-export-ready': {
    queue: QueueName.Identity,
    schema: z.object({ v: z.literal(1), exportId: z.uuid(), userId: id, storageKey: z.string().min(1).max(200), size: z.number().int().nonnegative() }),
  },
  /** Remove account exports older than 24 hours, their ZIPs with them (a repeatable job of identity). */
  'identity.sweep-exports': {
    queue: QueueName.Identity,
    schema: z.object({ v: z.literal(1) }),
    // Every hour at :41: an export is removed within the hour after its 24 hours.
    repeat: { pattern: '41 * * * *', attempts: 3 },
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
   * Double opt-in upkeep (a repeatable job of the leads service): remind, once, the visitors whose sign-up has
   * waited 48 hours for its confirmation, and remove the sign-ups still unconfirmed after 7 days.
   */
  'leads.opt-in-sweep': {
    queue: QueueName.Leads,
    schema: z.object({ v: z.literal(1) }),
    // Every 15 minutes: a reminder or a removal happens within a quarter of an hour of its time.
    repeat: { pattern: '*/15 * * * *', attempts: 3 },
  },
  /**
   * Tell a Pro user's automation tool about a new lead (Standard Webhooks signature). Recorded by the leads
   * service with the lead, when the owner's plan in force at the capture was Pro: it carries what the
   * `lead.created` event says, the lead (`createdAt` is the lead's own, written in the same statement) and
   * the page as the visitor saw it.
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
  /** Send a logged webhook message again, with its own `webhook-id` (the owner's Redeliver button). */
  'webhook.redeliver': {
    queue: QueueName.Webhooks,
    schema: z.object({ v: z.literal(1), messageId: webhookMessageIdSchema }),
  },
  /**
   * Tell a Pro user's hook subscriptions (`/api/v1/hooks`) about a new lead. Recorded by the leads service with
   * the lead when its owner, on Pro in the plan in force at the capture, has hooks: the notifications service
   * makes one message per matching hook (its id worked out from the hook and the lead) and attempts them in
   * this job, as the page webhooks' deliveries do; a retry attempts only the messages that did not end.
   */
  'hook.deliver': {
    queue: QueueName.Webhooks,
    schema: leadDeliverySchema.extend({ ownerId: id }),
  },
  /** Several leads' `hook.deliver` jobs in one (relayed together, see {@link RELAYED_TOGETHER}): their messages attempted side by side. */
  'hook.deliver-many': {
    queue: QueueName.Webhooks,
    schema: relayedGroupOf(leadDeliverySchema.extend({ ownerId: id }), WEBHOOK_DELIVERIES_PER_JOB),
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
  // Hook subscriptions: measured with `npm run bench` (hook run), one job per lead cost the notifications
  // process several times the page webhook's CPU per delivery.
  'hook.deliver': { as: 'hook.deliver-many', max: WEBHOOK_DELIVERIES_PER_JOB },
  // File e-mails: one queue job per lead was about a sixth of the gateway's CPU per sign-up (the relay's BullMQ
  // adds, measured with a V8 profile of `npm run bench`, submit part), and as much Redis work as the lead itself.
  'email.file-delivery': { as: 'email.file-delivery-many', max: FILE_EMAILS_PER_JOB },
};
type WorkPayload<N extends JobName> = z.infer<(typeof JOBS)[N]['schema']>;
type WorkJobsOfQueue<Q extends QueueName> = {
  [N in JobName]: (typeof JOBS)[N]['queue'] extends Q ? N : never;
}[JobName];

/** What a queue carries: jobs (work for the queue's service) and events (a copy of another service's fact). */
export type MessageName = JobName | EventName;
export type JobPayload<N extends MessageName> = N extends JobName
  ? WorkPayload<N>
  : N extends EventName
    ? z.infer<(typeof EVENTS)[N]['schema']>
    : never;
export type JobsOfQueue<Q extends QueueName> = WorkJobsOfQueue<Q> | EventsOfQueue<Q>;

export const JOB_NAMES = Object.keys(JOBS) as JobName[];

/** The jobs and events a queue's worker handles. */
export function jobsOfQueue(queue: QueueName): MessageName[] {
  return [...JOB_NAMES.filter((name) => JOBS[name].queue === queue), ...eventsOfQueue(queue)];
}

export function isJobName(name: string): name is JobName {
  return Object.prototype.hasOwnProperty.call(JOBS, name);
}

/** Whether a message of this name belongs on this queue (a job of it, or an event it subscribes to). */
export function isMessageOf(queue: QueueName, name: string): name is MessageName {
  if (isJobName(name)) return JOBS[name].queue === queue;
  return isEventName(name) && queuesOfEvent(name).includes(queue);
}

/** The payload schema of a job or an event. */
export function schemaOf(name: MessageName): z.ZodType {
  return isJobName(name) ? JOBS[name].schema : EVENTS[name].schema;
}

/** What travels in Redis: the payload plus tracing metadata. */
export interface JobEnvelope<N extends MessageName = MessageName> {
  payload: JobPayload<N>;
  meta: { correlationId: string; recordedAt: string };
}
