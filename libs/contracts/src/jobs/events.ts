import { z } from 'zod';
import { QueueName, type ServiceName } from './queues';
import { PAGE_LIMITS } from '../http/pages';

/**
 * Facts that more than one service keeps, each declared once here: the one service that changes it (its
 * owner), its payload, and the services that keep a copy (its subscribers), each on the queue its worker
 * serves. The owner publishes a change with `Outbox.publish` in the transaction that makes it, which writes
 * one message per subscriber: every copy is one queue hop from its owner, and no service passes on another's
 * fact. A service derives what it needs from the facts it receives (the leads service decides whether a new
 * lead goes to a webhook from `plan.changed` and `page.changed`). docs/events.md is generated from this file.
 *
 * Event names are stored in Redis with every queued message: never rename one; add a new one instead.
 * A payload version starts at 1; a new version is added beside the old one.
 */

/**
 * A subscription's state, as Stripe names it (plus 'none': never subscribed). An operator grant is
 * stored as 'active' with source 'operator'.
 */
export const PLAN_STATUSES = ['none', 'trialing', 'active', 'past_due', 'canceled', 'paused'] as const;
export type PlanStatus = (typeof PLAN_STATUSES)[number];

const isoDate = z.iso.datetime({ offset: true });
const id = z.number().int().positive();

/**
 * What the signing secrets of 'webhook-endpoint.changed' are sealed for (the purpose their key is derived with):
 * the pages service seals them, the notifications service opens its copy, so both sides name it here.
 */
export const WEBHOOK_SECRET_SEAL = 'webhook-secret';

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
 * What the leads service needs to know of a page to take a submission on it. `public` is the page as a
 * visitor sees it, built by the pages service with its owner's plan applied; it is kept as given (the
 * thank-you answer and the form shown again after a refused submission).
 */
/**
 * The page's delivery e-mail as its lead's file e-mail needs it (the page's `email…` fields with their
 * fallbacks applied by the pages service, except the standard subject and text, which stay null): the button
 * colour and branding come from `public`.
 */
export const deliveryEmailFactsSchema = z.object({
  /** The page's sender name, else its author name, else the owner's username. */
  senderName: z.string().min(1).max(100),
  /** The page's reply-to, else the owner's account e-mail as the pages service last saw it; null: unknown. */
  replyTo: z.string().min(3).max(320).nullable(),
  subject: z.string().max(200).nullable(),
  /** Sanitised rich text. */
  bodyHtml: z.string().max(PAGE_LIMITS.emailBody).nullable(),
});
export type DeliveryEmailFacts = z.infer<typeof deliveryEmailFactsSchema>;

export const pageFactsSchema = z.object({
  slug: z.string().min(1).max(200),
  ownerId: id,
  ownerUsername: z.string().min(1).max(100),
  /** Paused after the owner's downgrade: submissions are refused ('This page is paused'). */
  paused: z.boolean(),
  /** The file e-mailed to each new lead (null: none); the file e-mail job carries it. */
  fileUrl: z.string().max(2048).nullable(),
  /**
   * The page has a webhook URL and it is on. Whether a lead is sent to it is the leads service's call, with
   * the owner's plan (from `plan.changed`): webhooks are a Pro feature.
   */
  webhookOn: z.boolean(),
  public: z.record(z.string(), z.unknown()),
  /** The delivery e-mail (absent in events recorded before it existed: the standard e-mail). */
  deliveryEmail: deliveryEmailFactsSchema.optional(),
});
export type PageFacts = z.infer<typeof pageFactsSchema>;

export interface EventDeclaration {
  /** The one service that changes the fact and publishes it. */
  owner: ServiceName;
  /** What the fact is, for docs/events.md. */
  summary: string;
  schema: z.ZodType;
  /** Each service that keeps a copy, and the queue its message goes to (one its worker serves). */
  subscribers: Partial<Record<ServiceName, QueueName>>;
}

export const EVENTS = {
  'plan.changed': {
    owner: 'billing',
    summary:
      "A user's plan changed (Stripe, the operator, an expired grant). `version` counts the user's plan changes: a copy keeps the highest it has seen, so duplicates and late messages change nothing. Identity shows it on the account; pages pauses or un-pauses the owner's pages and applies the plan's rules to them; leads decides from it whether new leads go to the page's webhook.",
    schema: z.object({
      v: z.literal(1),
      userId: id,
      isPremium: z.boolean(),
      planStatus: z.enum(PLAN_STATUSES),
      /** When the current period (or trial, or operator grant) ends; null when it does not end by itself. */
      periodEnd: isoDate.nullable(),
      stripeCustomerId: z.string().min(1).max(100).nullable(),
      stripeSubscriptionId: z.string().min(1).max(100).nullable(),
      /** The user's plan version in billing: 1 for the first change, one more for each. */
      version: z.number().int().positive(),
      changedAt: isoDate,
    }),
    subscribers: { identity: QueueName.Identity, pages: QueueName.Pages, leads: QueueName.Leads },
  },
  'user.changed': {
    owner: 'identity',
    summary:
      "A user changed their username or e-mail address (Settings → Account; an e-mail once confirmed at the new address). `version` counts the user's profile changes: a copy keeps the highest it has seen. Pages keeps both as the owner's (the `/p/{username}/{slug}` address, the author shown, the delivery e-mail's default reply-to) and publishes the owner's pages again (`page.changed`), as for a plan. Billing gives the new e-mail to the user's Stripe customer, when they have one (receipts and invoices go there).",
    schema: z.object({
      v: z.literal(1),
      userId: id,
      username: z.string().min(1).max(100),
      email: z.string().min(3).max(254),
      /** The user's profile version in identity: 1 for the first change, one more for each. */
      version: z.number().int().positive(),
    }),
    subscribers: { pages: QueueName.Pages, billing: QueueName.Billing },
  },
  'user.deleted': {
    owner: 'identity',
    summary:
      "A user deleted their account (Settings → Account → Delete account). Identity removed the user and their sessions in the transaction that publishes it; each subscriber removes what it keeps of them, and a message that comes again changes nothing. Pages deletes the owner's pages (their analytics with them), publishes `page.changed` for each, has their leads and uploads removed and forgets the owner (the gateway applies it in identity's transaction, so the public pages answer 404 at once); leads forgets the owner's plan and leaves each of their pages' facts as a bare tombstone (the page id only, deleted for good); billing cancels the Stripe subscription at once and removes the account, keeping of each trial it took only a keyed hash of the address (so that address gets no second free trial); notifications removes the owner's webhook endpoints and delivery logs.",
    schema: z.object({ v: z.literal(1), userId: id, deletedAt: isoDate }),
    subscribers: { pages: QueueName.Pages, leads: QueueName.Leads, billing: QueueName.Billing, notifications: QueueName.Webhooks },
  },
  'page.changed': {
    owner: 'pages',
    summary:
      'A page was created, edited, paused or live again, its webhook turned off or on, its owner\'s plan applied to it, or it was deleted (`page: null`). `version` (when the change was recorded, ms since the epoch) keeps the newest state whatever order the messages run in.',
    schema: z.object({
      v: z.literal(1),
      pageId: id,
      version: z.number().int().nonnegative(),
      /** The slug the page had before this change, when it changed (caches of the old slug are dropped too). */
      formerSlug: z.string().min(1).max(200).nullable(),
      page: pageFactsSchema.nullable(),
    }),
    subscribers: { leads: QueueName.Leads },
  },
  'webhook-endpoint.changed': {
    owner: 'pages',
    summary:
      "A page's webhook endpoint changed: its URL saved, its secret rotated, the webhook turned on or off, or the page deleted (`endpoint: null`). The notifications service delivers from its copy (it reads no page). `at` orders the changes of a page.",
    schema: z.object({ v: z.literal(1), pageId: id, ownerId: id, at: isoDate, endpoint: webhookEndpointStateSchema.nullable() }),
    subscribers: { notifications: QueueName.Webhooks },
  },
  'hooks.changed': {
    owner: 'notifications',
    summary:
      "A user's hook subscriptions (`/api/v1/hooks`, made by their automation tools) changed: one made or removed (by its tool, or because its target answered 410 Gone). `hooks` is how many the user has now; `version` counts the user's changes, so a copy keeps the newest. Leads decides from it (with the owner's plan) whether a new lead is sent to the user's hooks: a capture of an owner without hooks records no hook job.",
    schema: z.object({
      v: z.literal(1),
      userId: id,
      hooks: z.number().int().nonnegative(),
      /** The user's hook version in notifications: 1 for the first change, one more for each. */
      version: z.number().int().positive(),
    }),
    subscribers: { leads: QueueName.Leads },
  },
  'leads.deleted': {
    owner: 'leads',
    summary:
      "A creator deleted some of a page's leads (erasure). The notifications service drops their webhook deliveries not yet made (a queued or retried delivery of such a lead is not sent) and their logged messages.",
    schema: z.object({ v: z.literal(1), pageId: id, leadIds: z.array(id).min(1).max(1_000) }),
    subscribers: { notifications: QueueName.Webhooks },
  },
} as const satisfies Record<string, EventDeclaration>;

export type EventName = keyof typeof EVENTS;
export type EventPayload<E extends EventName> = z.infer<(typeof EVENTS)[E]['schema']>;
export const EVENT_NAMES = Object.keys(EVENTS) as EventName[];

export function isEventName(name: string): name is EventName {
  return Object.prototype.hasOwnProperty.call(EVENTS, name);
}

/** The queues an event's messages go to, one per subscriber. */
export function queuesOfEvent(event: EventName): QueueName[] {
  return Object.values(EVENTS[event].subscribers as Partial<Record<ServiceName, QueueName>>);
}

/** The events whose messages arrive on a queue. */
export type EventsOfQueue<Q extends QueueName> = {
  [E in EventName]: Q extends (typeof EVENTS)[E]['subscribers'][keyof (typeof EVENTS)[E]['subscribers']] ? E : never;
}[EventName];

export function eventsOfQueue(queue: QueueName): EventName[] {
  return EVENT_NAMES.filter((event) => queuesOfEvent(event).includes(queue));
}
