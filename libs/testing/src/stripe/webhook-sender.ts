import { createHmac } from 'node:crypto';
import type { StripeObject } from './stripe-protocol';

/**
 * Webhook deliveries of the local Stripe server: each event is POSTed as JSON to the endpoint with a
 * `Stripe-Signature: t=<unix>,v1=<hex HMAC-SHA256 of "<t>.<body>">` header, signed with the endpoint's
 * secret exactly as Stripe signs (so `stripe.webhooks.constructEvent` accepts it).
 *
 * `auto`: events go out one after another, in the order they happened. `hold`: events wait until the test
 * releases them (in any order), re-sends one, or never sends them. A failed delivery (an answer other than
 * 2xx, or no answer) is recorded and sent again only when the test asks.
 */

export type DeliveryMode = 'auto' | 'hold';

export interface Delivery {
  eventId: string;
  eventType: string;
  /** 1 for the first attempt of this event, then 2, 3… */
  attempt: number;
  /** The endpoint's HTTP status, or null when it could not be reached. */
  status: number | null;
  ok: boolean;
  /** Why it failed without an answer (connection refused, timeout). */
  error?: string;
  /** The endpoint's answer (first 2,000 characters). */
  responseBody?: string;
}

/** The `Stripe-Signature` header for `payload`, signed at `timestamp` (unix seconds) with `secret`. */
export function stripeSignature(payload: string, secret: string, timestamp: number): string {
  const v1 = createHmac('sha256', secret).update(`${timestamp}.${payload}`, 'utf8').digest('hex');
  return `t=${timestamp},v1=${v1}`;
}

export class WebhookSender {
  readonly deliveries: Delivery[] = [];
  private held: StripeObject[] = [];
  private chain: Promise<void> = Promise.resolve();
  private closed = false;

  constructor(
    public url: string | null,
    public mode: DeliveryMode,
    private readonly secret: string,
    private readonly timeoutMs: number,
    /** Called after a successful delivery (the event's `pending_webhooks` drops to 0). */
    private readonly onDelivered: (eventId: string) => void,
  ) {}

  /** A new event: sent after the ones before it (auto) or kept for the test (hold). Without an endpoint, nothing. */
  enqueue(event: StripeObject): void {
    if (!this.url || this.closed) return;
    if (this.mode === 'hold') {
      this.held.push(event);
      return;
    }
    this.schedule(event);
  }

  heldEvents(): StripeObject[] {
    return [...this.held];
  }

  /** Sends a held event now (it leaves the held list) and waits for the answer. */
  async deliverHeld(eventId: string): Promise<Delivery> {
    const at = this.held.findIndex((e) => e.id === eventId);
    if (at < 0) throw new Error(`event ${eventId} is not held`);
    const [event] = this.held.splice(at, 1);
    return this.send(event);
  }

  /** Sends an event (again), whatever happened to it before: a duplicate delivery. */
  async resend(event: StripeObject): Promise<Delivery> {
    return this.send(event);
  }

  /** Events whose last delivery failed, oldest first. */
  failedEventIds(): string[] {
    const last = new Map<string, Delivery>();
    for (const d of this.deliveries) last.set(d.eventId, d);
    return [...last.values()].filter((d) => !d.ok).map((d) => d.eventId);
  }

  /** Resolves once every delivery started so far has its answer. */
  async settled(): Promise<void> {
    let current: Promise<void>;
    do {
      current = this.chain;
      await current;
    } while (current !== this.chain);
  }

  close(): void {
    this.closed = true;
    this.held = [];
  }

  /** The body and headers of a delivery of `event`, signed now: what a test sends itself. */
  signedRequest(event: StripeObject, timestamp = Math.floor(Date.now() / 1000)): { body: string; headers: Record<string, string> } {
    const body = JSON.stringify(event, null, 2);
    return {
      body,
      headers: {
        'content-type': 'application/json; charset=utf-8',
        'stripe-signature': stripeSignature(body, this.secret, timestamp),
        'user-agent': 'Stripe/1.0 (+https://stripe.com/docs/webhooks)',
      },
    };
  }

  private schedule(event: StripeObject): void {
    this.chain = this.chain.then(() => this.send(event).then(() => undefined));
  }

  private async send(event: StripeObject): Promise<Delivery> {
    const attempt = this.deliveries.filter((d) => d.eventId === event.id).length + 1;
    const delivery: Delivery = { eventId: event.id, eventType: event.type, attempt, status: null, ok: false };
    if (!this.url || this.closed) {
      delivery.error = 'no webhook endpoint';
      this.deliveries.push(delivery);
      return delivery;
    }
    // Signed with the wall clock, as Stripe does: the receiver checks the timestamp against its own clock.
    const { body, headers } = this.signedRequest(event);
    try {
      const res = await fetch(this.url, { method: 'POST', headers, body, signal: AbortSignal.timeout(this.timeoutMs), redirect: 'manual' });
      delivery.status = res.status;
      delivery.ok = res.status >= 200 && res.status < 300;
      delivery.responseBody = (await res.text()).slice(0, 2000);
    } catch (err) {
      const cause = (err as { cause?: { code?: string; message?: string } }).cause;
      delivery.error = cause?.code ?? cause?.message ?? (err as Error).message;
    }
    this.deliveries.push(delivery);
    if (delivery.ok) this.onDelivered(event.id);
    return delivery;
  }
}
