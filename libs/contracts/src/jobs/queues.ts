/**
 * Every BullMQ queue of Plink. The string values are stored in Redis with every queued job:
 * never rename one (a renamed queue strands the jobs already in it); add a new member instead.
 */
export enum QueueName {
  /** Outgoing e-mail, handled by the notifications service. */
  Email = 'email',
  /**
   * The pages service's own work: flushing buffered view counts, pausing or un-pausing an owner's pages
   * when their plan changes, handing the leads of paused pages to the leads service for removal.
   */
  Pages = 'pages',
  /** The leads service's own work: removing the leads of a deleted page, or of a paused page 30 days after a downgrade. */
  Leads = 'leads',
  /** Webhook deliveries to Pro users' automation tools, handled by the notifications service. */
  Webhooks = 'webhooks',
  /**
   * The pages service's uploads: removing images no page shows any more, and the periodic sweep of uploads
   * never saved to a page. Apart from the pages queue, so a slow or unreachable store never holds up the
   * view flush.
   */
  Uploads = 'uploads',
  /** The identity service's own work: applying plan changes (published by billing) to the user. */
  Identity = 'identity',
  /** The billing service's own work: handling Stripe's webhook events, ending operator grants whose time is up, the lead removal after a downgrade. */
  Billing = 'billing',
}

export interface QueueSettings {
  /** Jobs one worker process runs at once. */
  concurrency: number;
  /** Tries before a job goes to the failed set. */
  attempts: number;
  /** Exponential backoff base: try n waits about delayMs * 2^(n-1). */
  backoffDelayMs: number;
  /**
   * 'exponential' (the default) uses {@link backoffDelayMs}; 'webhook-schedule' is the webhooks worker's own
   * strategy (its fixed schedule with jitter, honouring Retry-After), registered in that worker's settings.
   */
  backoffType?: 'exponential' | 'webhook-schedule';
  /** Completed jobs kept for inspection. */
  keepCompleted: number;
  /** Failed jobs kept for inspection. */
  keepFailed: number;
}

/** Exhaustive: a queue added above without settings here does not compile. */
export const QUEUE_SETTINGS: Record<QueueName, QueueSettings> = {
  [QueueName.Email]: {
    concurrency: 5,
    attempts: 8,
    backoffDelayMs: 2_000,
    keepCompleted: 1_000,
    keepFailed: 5_000,
  },
  [QueueName.Pages]: { concurrency: 1, attempts: 3, backoffDelayMs: 1_000, keepCompleted: 10, keepFailed: 100 },
  [QueueName.Leads]: { concurrency: 2, attempts: 10, backoffDelayMs: 5_000, keepCompleted: 100, keepFailed: 1_000 },
  // The first try at once, then 5 s, 5 min, 30 min, 2 h, 5 h, 10 h, 10 h (about 27 h): 8 tries. The
  // concurrency here is the default of WEBHOOK_CONCURRENCY, which the worker applies at start.
  [QueueName.Webhooks]: {
    concurrency: 20,
    attempts: 8,
    backoffDelayMs: 5_000,
    backoffType: 'webhook-schedule',
    keepCompleted: 1_000,
    keepFailed: 10_000,
  },
  // Keeps trying for about 40 minutes while the store is away (5 s, 10 s, … 21 min).
  [QueueName.Uploads]: { concurrency: 2, attempts: 10, backoffDelayMs: 5_000, keepCompleted: 100, keepFailed: 1_000 },
  // A plan change must reach the user: keeps trying for about an hour and a half (2 s … 68 min).
  [QueueName.Identity]: { concurrency: 5, attempts: 12, backoffDelayMs: 2_000, keepCompleted: 1_000, keepFailed: 5_000 },
  // A Stripe event whose subscription cannot be re-read (Stripe unreachable) keeps trying for about 6 hours
  // (5 s … 2.8 h); the next event of that customer, or a status check, re-reads the subscription anyway.
  [QueueName.Billing]: { concurrency: 2, attempts: 12, backoffDelayMs: 5_000, keepCompleted: 100, keepFailed: 1_000 },
};

/** The services of Plink, as the queues and events name them. */
export type ServiceName = 'identity' | 'pages' | 'leads' | 'billing' | 'notifications';

/** Which service's worker serves each queue (the Kubernetes manifests scale each worker on its own queues). */
export const QUEUE_OWNER: Record<QueueName, ServiceName> = {
  [QueueName.Email]: 'notifications',
  [QueueName.Pages]: 'pages',
  [QueueName.Leads]: 'leads',
  [QueueName.Webhooks]: 'notifications',
  [QueueName.Uploads]: 'pages',
  [QueueName.Identity]: 'identity',
  [QueueName.Billing]: 'billing',
};
