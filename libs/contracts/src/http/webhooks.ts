/** Texts of the webhook calls and screens, shared by the server and the SPA. */
export const WebhookMessages = {
  /** Saving a URL whose host is (or resolves to) a loopback, private, link-local or other inward address. */
  blockedAddress:
    'This webhook URL points to a private or local network address, which webhooks cannot reach. Please use a public http:// or https:// URL.',
  proOnly: 'Webhooks require a Pro subscription.',
  noUrl: 'This page has no webhook URL. Save one first.',
  messageNotFound: 'Delivery not found',
  /** Test events and redeliveries: at most 30 a minute per page. */
  tooManySends: 'Too many test events and redeliveries. Please wait a minute and try again.',
  disabledGone: 'The receiver answered 410 Gone.',
  disabledFailing: 'Every delivery failed for 24 hours.',
  disabledExhausted: 'Three messages in a row failed every attempt.',
} as const;

/** How long a webhook's or a hook's secret before a rotation keeps signing beside the new one. */
export const WEBHOOK_SECRET_GRACE_MS = 24 * 60 * 60 * 1000;

/** The event types Plink sends. */
export const WEBHOOK_EVENT_TYPES = ['lead.created'] as const;
export type WebhookEventType = (typeof WEBHOOK_EVENT_TYPES)[number];

/** The JSON body of a `lead.created` webhook (docs/webhooks.md). */
export interface LeadCreatedEvent {
  type: 'lead.created';
  timestamp: string;
  /** Only on test events sent from the editor. */
  test?: true;
  data: {
    id: number;
    email: string;
    createdAt: string;
    consentAt: string | null;
    page: { id: number; slug: string; title: string; url: string };
    /** Where the lead came from (each null when the sign-up did not tell). */
    source: LeadCreatedSource;
  };
}

/** `data.source` of a `lead.created` body. */
export interface LeadCreatedSource {
  /** The referring site's domain. */
  referrer: string | null;
  utmSource: string | null;
  utmMedium: string | null;
  utmCampaign: string | null;
  /** desktop, phone or tablet. */
  device: string | null;
}

export type WebhookDeliveryStatus = 'pending' | 'delivered' | 'failing' | 'failed';

/** One try of a message. `status`: the HTTP status, or null when there was no answer (then `error` says why). */
export interface WebhookAttemptDto {
  at: string;
  url: string;
  status: number | null;
  error: string | null;
  durationMs: number;
  /** The first 500 characters of the answer's body. */
  response: string | null;
}

export interface WebhookDeliveryDto {
  /** The message id (`msg_…`), the `webhook-id` header of every attempt. */
  id: string;
  eventType: WebhookEventType;
  test: boolean;
  createdAt: string;
  status: WebhookDeliveryStatus;
  attempts: WebhookAttemptDto[];
  nextAttemptAt: string | null;
}

/** A page's webhook endpoint (POST …/webhook/rotate-secret and …/webhook/enable answer this). */
export interface WebhookEndpointDto {
  url: string | null;
  /** False when Plink turned it off (see disabledReason) until the owner turns it back on. */
  enabled: boolean;
  /** `whsec_…`; during 24 h after a rotation, both secrets, space-separated (the new one first). */
  secret: string | null;
  disabledReason: string | null;
}

/** GET /api/pages/{id}/webhook */
export interface WebhookDto extends WebhookEndpointDto {
  /** The last 100 messages, newest first. */
  deliveries: WebhookDeliveryDto[];
}

/** POST /api/pages/{id}/webhook/test: the first attempt's result. */
export interface WebhookTestResult {
  delivery: WebhookDeliveryDto;
}
