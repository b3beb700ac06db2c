/**
 * FakeStripe: a local HTTP server that speaks Stripe's API protocol, for tests that must run without the
 * internet. The application talks to it through the real `stripe` SDK:
 *
 *   new Stripe(fake.secretKey, { host: '127.0.0.1', port: fake.port, protocol: 'http' })
 *   (the services get it as STRIPE_API_URL=fake.url, STRIPE_SECRET_KEY, STRIPE_WEBHOOK_SECRET, STRIPE_PRICE_ID)
 *
 * Protocol: form-encoded bodies with bracketed keys (parsed with qs), `Authorization: Bearer sk_…` checked
 * (401 otherwise), `Idempotency-Key` on POSTs (same key and parameters → the stored answer again; same key,
 * other parameters → 400 idempotency_error), errors as `{ error: { type, message, code?, param? } }`
 * (unknown id → 404 resource_missing, missing parameter → 400 parameter_missing, unknown parameter → 400
 * parameter_unknown), objects in Stripe's shapes for the SDK's API version, `expand[]` on the objects' ids.
 *
 * Endpoints: customers (create, retrieve, update, delete, list), products and prices (a $10/month "Pro"
 * price exists from the start: `priceId`), Checkout Sessions in subscription mode (create, retrieve, list,
 * expire, line_items), subscriptions (retrieve, update cancel_at_period_end/metadata/trial_end ('now' ends the
 * trial at once, a time moves its end), cancel, list, resume), payment methods (retrieve), invoices (retrieve,
 * list, pay), billing portal sessions, events (retrieve, list).
 * Pages for the browser: GET/POST `/c/pay/:id` (the hosted checkout: "Plink test checkout", a "Start trial" or
 * "Subscribe" button, a card number, a promotion code field when allowed; card 4000 0000 0000 0002 is
 * declined), `/p/session/:id` (the billing portal: cancel or renew, a link back to return_url), `/i/:id` (an
 * invoice, with a Pay button while open).
 *
 * Test control (jest):
 *   const stripe = await FakeStripe.start({ webhookUrl?, deliver?: 'auto' | 'hold', secretKey?, webhookSecret?, priceId? });
 *   stripe.url / secretKey / webhookSecret / priceId / promotionCode ('PLINK50': 50 % off the first payment)
 *   stripe.events, stripe.requests ({ method, path, params, idempotencyKey, status }), stripe.deliveries
 *   stripe.requestsTo('POST', '/v1/checkout/sessions')            the recorded calls to one endpoint
 *   await stripe.completeCheckout(sessionId, { withCard?, cardNumber?, declineCard?, promotionCode?, email? })
 *        (a card's PaymentMethod has `card.fingerprint`: one per card number, as Stripe gives; a card
 *        given without a number has one of its own per customer)
 *   await stripe.advanceTime(ms) / advanceTo(date)                 the clock only moves forward; trials end,
 *        periods renew, trial_will_end 3 days before a trial's end, cancel_at_period_end ends the subscription
 *   await stripe.failNextPayment(subId); await stripe.payInvoice(invoiceId | subId)
 *   await stripe.cancelNow(subId); await stripe.setStatus(subId, 'paused' | 'active' | 'past_due' | …)
 *   stripe.subscription(id), customer(id), checkoutSession(id) (with subscription_data and line items)
 *   stripe.setWebhookUrl(url); stripe.setDeliveryMode('hold'); stripe.heldEvents();
 *   await stripe.deliver(eventId); await stripe.deliverHeld(); await stripe.redeliver(eventId) (a duplicate);
 *   await stripe.redeliverFailed(); stripe.signedRequest(eventId) (body + headers to post an event yourself)
 *   stripe.failRequests(n, status = 500); await stripe.goDown(); await stripe.comeBack(); await stripe.close()
 *   const held = stripe.holdNextAnswer('GET', '/v1/subscriptions'); await held.reached; …; held.release()
 *        (the next such call is answered as the state is then, but the answer reaches the caller on release:
 *        a reply slowed on the network, for a test of what a late answer does)
 * With `controlApi: true` (the standalone server) most of these are also HTTP calls under `/_control/`
 * (see handleControl), for a test in another process.
 * Simplifications: one hosted page instead of Stripe's payment flow (a card number is all it asks), percent-off
 * promotion codes only, and a past_due subscription stays past_due (no further invoices or retries) until
 * payInvoice or setStatus. Events are the ones billing code listens to, not all Stripe sends: customer.created/
 * updated/deleted, checkout.session.completed/expired, customer.subscription.created/updated (with
 * previous_attributes)/deleted/trial_will_end/paused/resumed, invoice.paid, invoice.payment_failed.
 * Webhooks are signed with the wall clock (as Stripe signs), while objects and events carry the server's
 * clock. In `auto` mode the control methods return once the events they caused were delivered; events that
 * API calls cause are delivered in the background (`await stripe.settled()` waits for them).
 *
 * Standalone (the browser journey): `node libs/testing/dist/stripe/fake-stripe-main.js --port 12111
 * --webhook-url <the app's webhook URL>` prints one JSON line with the url and keys.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import { parse as parseQuery } from 'qs';
import { checkoutPage, describePrice, messagePage, portalPage } from './hosted-pages';
import { API_VERSION, StripeState, type CompleteCheckoutOptions, type SubscriptionStatus } from './stripe-billing';
import {
  applyMetadata,
  checkKnownParams,
  expandPaths,
  invalidParam,
  listPage,
  missingParam,
  newId,
  noSuch,
  optionalString,
  parseBoolean,
  parseEmail,
  parseInteger,
  parseUrl,
  requireString,
  snapshot,
  StripeApiError,
  type StripeObject,
} from './stripe-protocol';
import { WebhookSender, type Delivery, type DeliveryMode } from './webhook-sender';

export type { Delivery, DeliveryMode } from './webhook-sender';
export type { CompleteCheckoutOptions, SubscriptionStatus } from './stripe-billing';
export type { StripeObject } from './stripe-protocol';
export { stripeSignature } from './webhook-sender';

export interface FakeStripeOptions {
  /** Port to listen on (127.0.0.1); 0 or absent = any free port. */
  port?: number;
  /** Where events are POSTed; absent = no deliveries until setWebhookUrl. */
  webhookUrl?: string | null;
  /** `auto` (default): in order, as they happen. `hold`: only when the test releases them. */
  deliver?: DeliveryMode;
  /** Fixed keys and price id (a browser journey configures its server before this one starts); random otherwise. */
  secretKey?: string;
  webhookSecret?: string;
  priceId?: string;
  /** How long a webhook endpoint may take to answer (default 10 s). */
  deliveryTimeoutMs?: number;
  /**
   * Also answer the test-control calls over HTTP under `/_control/` (for a test in another process, e.g. the
   * browser journey against the standalone server); they need the secret key like the API. Off by default.
   */
  controlApi?: boolean;
}

/** An answer held back by holdNextAnswer. */
interface AnswerHold {
  method: string;
  path: string;
  arrived: () => void;
  released: Promise<void>;
}

export interface RecordedRequest {
  method: string;
  path: string;
  /** Query (GET, DELETE) or form body (POST), parsed like Stripe parses them. */
  params: StripeObject;
  idempotencyKey: string | null;
  status: number;
}

interface Context {
  params: StripeObject;
  id: string;
  sub?: string;
}

type Handler = (ctx: Context) => StripeObject;

interface Route {
  method: string;
  pattern: RegExp;
  handler: Handler;
}

interface StoredAnswer {
  method: string;
  path: string;
  params: string;
  status: number;
  body: StripeObject;
}

const SESSION_PARAMS = [
  'mode',
  'line_items',
  'success_url',
  'cancel_url',
  'customer',
  'customer_email',
  'client_reference_id',
  'subscription_data',
  'payment_method_collection',
  'allow_promotion_codes',
  'metadata',
  'expand',
  // Accepted and kept (locale, billing_address_collection) or accepted and ignored, as they change nothing here.
  'locale',
  'billing_address_collection',
  'customer_update',
  'consent_collection',
  'automatic_tax',
  'tax_id_collection',
  'payment_method_types',
  'ui_mode',
  'custom_text',
  'phone_number_collection',
  'saved_payment_method_options',
  'submit_type',
] as const;

const SESSION_PARAMS_NOT_IMPLEMENTED = [
  'discounts',
  'expires_at',
  'after_expiration',
  'custom_fields',
  'customer_creation',
  'invoice_creation',
  'optional_items',
  'payment_method_configuration',
  'payment_method_options',
  'redirect_on_completion',
  'return_url',
  'shipping_address_collection',
];

const SUBSCRIPTION_DATA_PARAMS = ['trial_period_days', 'trial_settings', 'metadata', 'description'];
const SUBSCRIPTION_DATA_NOT_IMPLEMENTED = [
  'trial_end',
  'billing_cycle_anchor',
  'billing_mode',
  'default_tax_rates',
  'proration_behavior',
  'application_fee_percent',
  'on_behalf_of',
  'transfer_data',
  'invoice_settings',
];

const SUBSCRIPTION_UPDATE_PARAMS = ['cancel_at_period_end', 'metadata', 'description', 'default_payment_method', 'cancellation_details', 'proration_behavior', 'trial_end', 'expand'];
const SUBSCRIPTION_UPDATE_NOT_IMPLEMENTED = [
  'items',
  'trial_from_plan',
  'trial_settings',
  'cancel_at',
  'pause_collection',
  'billing_cycle_anchor',
  'discounts',
  'payment_behavior',
  'collection_method',
  'days_until_due',
  'default_source',
  'default_tax_rates',
  'add_invoice_items',
  'automatic_tax',
  'payment_settings',
  'proration_date',
  'off_session',
  'on_behalf_of',
  'transfer_data',
  'billing_thresholds',
  'invoice_settings',
  'pending_invoice_item_interval',
  'application_fee_percent',
];

export class FakeStripe {
  readonly secretKey: string;
  readonly webhookSecret: string;
  readonly priceId: string;
  readonly productId: string;
  /** A promotion code that exists from the start: 50 % off the first payment. */
  readonly promotionCode = 'PLINK50';
  port = 0;
  readonly requests: RecordedRequest[] = [];
  private readonly state: StripeState;
  private readonly sender: WebhookSender;
  private readonly routes: Route[] = [];
  private readonly idempotency = new Map<string, StoredAnswer>();
  private readonly sockets = new Set<Socket>();
  private server: Server;
  private failures: { count: number; status: number } = { count: 0, status: 500 };
  private readonly holds: AnswerHold[] = [];
  private down = false;
  private readonly controlApi: boolean;

  private constructor(options: FakeStripeOptions) {
    this.controlApi = options.controlApi ?? false;
    this.secretKey = options.secretKey ?? newId('sk_test_', 32);
    this.webhookSecret = options.webhookSecret ?? newId('whsec_', 32);
    this.sender = new WebhookSender(options.webhookUrl ?? null, options.deliver ?? 'auto', this.webhookSecret, options.deliveryTimeoutMs ?? 10_000, (eventId) => {
      const event = this.state.events.find((e) => e.id === eventId);
      if (event) event.pending_webhooks = 0;
    });
    this.state = new StripeState(
      () => this.url,
      () => this.sender.url !== null,
      (event) => this.sender.enqueue(event),
    );
    const product = this.state.createProduct({ name: 'Pro', description: 'Plink Pro: unlimited pages' });
    this.productId = product.id;
    this.priceId = this.state.createPrice({
      id: options.priceId,
      product: product.id,
      unitAmount: 1000,
      currency: 'usd',
      recurring: { interval: 'month', interval_count: 1 },
      lookupKey: 'plink_pro_monthly',
      nickname: 'Pro monthly',
    }).id;
    this.state.createPromotionCode(this.promotionCode, { percentOff: 50, duration: 'once', name: '50% off the first month' });
    this.defineRoutes();
    this.server = this.createHttpServer();
  }

  static async start(options: FakeStripeOptions = {}): Promise<FakeStripe> {
    const fake = new FakeStripe(options);
    await fake.listen(options.port ?? 0);
    return fake;
  }

  /** `http://127.0.0.1:<port>`: STRIPE_API_URL for the services. */
  get url(): string {
    return `http://127.0.0.1:${this.port}`;
  }

  // ---- test control: reading --------------------------------------------------------------------------

  /** Every event so far, oldest first. */
  get events(): StripeObject[] {
    return this.state.events;
  }

  get deliveries(): Delivery[] {
    return this.sender.deliveries;
  }

  eventsOfType(type: string): StripeObject[] {
    return this.state.events.filter((e) => e.type === type);
  }

  requestsTo(method: string, path: string): RecordedRequest[] {
    return this.requests.filter((r) => r.method === method && r.path === path);
  }

  /** The server's clock (unix seconds). */
  now(): number {
    return this.state.now();
  }

  customer(id: string): StripeObject {
    return snapshot(this.state.get('customer', id));
  }

  subscription(id: string): StripeObject {
    return snapshot(this.state.get('subscription', id));
  }

  invoice(id: string): StripeObject {
    return snapshot(this.state.get('invoice', id));
  }

  /** A Checkout Session with what it was created with: `subscription_data` and the line items. */
  checkoutSession(id: string): StripeObject {
    const session = snapshot(this.state.get('checkout.session', id));
    const extras = this.state.sessionExtras.get(id)!;
    return { ...session, subscription_data: snapshot(extras.subscriptionData), line_items: snapshot(extras.lineItems) };
  }

  // ---- test control: acting ---------------------------------------------------------------------------

  /** The payer finishes the hosted checkout (as the page's button does). Rejects like the page would. */
  async completeCheckout(sessionId: string, options: CompleteCheckoutOptions = {}): Promise<StripeObject> {
    const session = this.act(() => this.state.completeCheckout(this.state.get('checkout.session', sessionId), options));
    await this.afterAct();
    return snapshot(session);
  }

  async expireCheckout(sessionId: string): Promise<void> {
    this.act(() => this.state.expireSession(this.state.get('checkout.session', sessionId)));
    await this.afterAct();
  }

  /** Moves the clock forward by `ms`, running every trial end, renewal and cancellation due on the way. */
  async advanceTime(ms: number): Promise<void> {
    if (ms < 0) throw new Error('the clock only moves forward');
    this.act(() => this.state.advanceTo(Math.floor((Date.now() + this.offsetOf() + ms) / 1000)));
    await this.afterAct();
  }

  /** Moves the clock to `when` (a Date or unix seconds). */
  async advanceTo(when: Date | number): Promise<void> {
    const unix = typeof when === 'number' ? when : Math.floor(when.getTime() / 1000);
    this.act(() => this.state.advanceTo(Math.max(unix, this.state.now())));
    await this.afterAct();
  }

  /** The next charge of this subscription (trial end, renewal) fails: past_due and invoice.payment_failed. */
  async failNextPayment(subscriptionId: string): Promise<void> {
    this.state.failNextPayment(this.state.get('subscription', subscriptionId));
  }

  /** Pays an open invoice (or the latest open invoice of a subscription): invoice.paid, subscription active. */
  async payInvoice(invoiceOrSubscriptionId: string): Promise<void> {
    this.act(() => {
      let invoice: StripeObject | undefined;
      if (invoiceOrSubscriptionId.startsWith('sub_')) {
        invoice = this.state.openInvoiceOf(this.state.get('subscription', invoiceOrSubscriptionId));
        if (!invoice) throw new Error(`subscription ${invoiceOrSubscriptionId} has no open invoice`);
      } else invoice = this.state.get('invoice', invoiceOrSubscriptionId);
      this.state.payInvoice(invoice);
    });
    await this.afterAct();
  }

  async cancelNow(subscriptionId: string): Promise<void> {
    this.act(() => this.state.cancelNow(this.state.get('subscription', subscriptionId)));
    await this.afterAct();
  }

  async setStatus(subscriptionId: string, status: SubscriptionStatus): Promise<void> {
    this.act(() => this.state.setStatus(this.state.get('subscription', subscriptionId), status));
    await this.afterAct();
  }

  createPromotionCode(code: string, percentOff: number, duration: 'once' | 'forever' = 'once'): StripeObject {
    return snapshot(this.state.createPromotionCode(code, { percentOff, duration }));
  }

  // ---- test control: webhooks -------------------------------------------------------------------------

  setWebhookUrl(url: string | null): void {
    this.sender.url = url;
  }

  setDeliveryMode(mode: DeliveryMode): void {
    this.sender.mode = mode;
  }

  /** Events waiting for the test (hold mode), oldest first. */
  heldEvents(): StripeObject[] {
    return this.sender.heldEvents();
  }

  /** Sends one held event now. */
  deliver(eventId: string): Promise<Delivery> {
    return this.sender.deliverHeld(eventId);
  }

  /** Sends every held event, oldest first. */
  async deliverHeld(): Promise<Delivery[]> {
    const out: Delivery[] = [];
    for (const event of this.sender.heldEvents()) out.push(await this.sender.deliverHeld(event.id));
    return out;
  }

  /** Sends an event again (a duplicate delivery, as Stripe may make). */
  redeliver(eventId: string): Promise<Delivery> {
    return this.sender.resend(this.state.get('event', eventId));
  }

  /** Sends again, oldest first, every event whose last delivery failed. */
  async redeliverFailed(): Promise<Delivery[]> {
    const out: Delivery[] = [];
    for (const id of this.sender.failedEventIds()) out.push(await this.sender.resend(this.state.get('event', id)));
    return out;
  }

  /** Body and headers of a signed delivery of the event, for a test that posts it itself. */
  signedRequest(eventId: string, timestamp?: number): { body: string; headers: Record<string, string> } {
    return this.sender.signedRequest(this.state.get('event', eventId), timestamp);
  }

  /** Waits until every delivery started so far has its answer. */
  settled(): Promise<void> {
    return this.sender.settled();
  }

  // ---- test control: outages --------------------------------------------------------------------------

  /** The next `count` API calls answer `status` (500 by default) with an api_error. The SDK retries 5xx itself. */
  failRequests(count: number, status = 500): void {
    this.failures = { count, status };
  }

  /**
   * The next API call to `method` `path` is answered as the state is when it arrives, but its answer is sent
   * only on `release()`; `reached` resolves once that call arrived.
   */
  holdNextAnswer(method: string, path: string): { reached: Promise<void>; release: () => void } {
    let arrived!: () => void;
    let release!: () => void;
    const reached = new Promise<void>((resolve) => (arrived = resolve));
    const released = new Promise<void>((resolve) => (release = resolve));
    this.holds.push({ method: method.toUpperCase(), path, arrived, released });
    return { reached, release };
  }

  /** Stops listening and cuts every connection: calls fail with "connection refused" until comeBack(). */
  async goDown(): Promise<void> {
    if (this.down) return;
    this.down = true;
    await new Promise<void>((resolve) => {
      this.server.close(() => resolve());
      for (const socket of this.sockets) socket.destroy();
    });
  }

  async comeBack(): Promise<void> {
    if (!this.down) return;
    this.server = this.createHttpServer();
    await this.listen(this.port);
    this.down = false;
  }

  async close(): Promise<void> {
    this.sender.close();
    if (this.down) return;
    this.down = true;
    await new Promise<void>((resolve) => {
      this.server.close(() => resolve());
      for (const socket of this.sockets) socket.destroy();
    });
  }

  // ---- HTTP ------------------------------------------------------------------------------------------

  private offsetOf(): number {
    return this.state.now() * 1000 - Date.now();
  }

  private act<T>(fn: () => T): T {
    this.state.request = null;
    return fn();
  }

  private async afterAct(): Promise<void> {
    if (this.sender.mode === 'auto') await this.sender.settled();
  }

  private createHttpServer(): Server {
    const server = createServer((req, res) => {
      void this.handle(req, res).catch((err) => {
        if (!res.headersSent) this.sendJson(res, 500, { error: { type: 'api_error', message: (err as Error).message } });
      });
    });
    server.keepAliveTimeout = 5_000;
    server.on('connection', (socket) => {
      this.sockets.add(socket);
      socket.on('close', () => this.sockets.delete(socket));
    });
    return server;
  }

  private listen(port: number): Promise<void> {
    return new Promise((resolve, reject) => {
      this.server.once('error', reject);
      this.server.listen(port, '127.0.0.1', () => {
        this.server.off('error', reject);
        this.port = (this.server.address() as { port: number }).port;
        resolve();
      });
    });
  }

  private async handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const url = new URL(req.url ?? '/', this.url);
    const method = (req.method ?? 'GET').toUpperCase();
    const raw = await readBody(req);
    if (url.pathname.startsWith('/v1/')) return this.handleApi(req, res, method, url, raw);
    if (this.controlApi && url.pathname.startsWith('/_control/')) return this.handleControl(req, res, method, url);
    return this.handlePage(res, method, url.pathname, raw);
  }

  /**
   * The test-control calls over HTTP (option `controlApi`), parameters in the query string:
   * POST advance-time?ms=, complete-checkout?session=&with_card=&card_number=&promotion_code=, fail-next-payment?subscription=,
   * pay-invoice?id=, cancel-now?subscription=, set-status?subscription=&status=, redeliver-failed, deliver-held;
   * GET events, deliveries. Answers JSON; 400 with `{ error }` when the call cannot be done.
   */
  private async handleControl(req: IncomingMessage, res: ServerResponse, method: string, url: URL): Promise<void> {
    const auth = this.checkAuth(req.headers.authorization);
    if (auth) return this.sendJson(res, 401, auth.body);
    const q = Object.fromEntries(url.searchParams);
    const need = (name: string) => {
      if (!q[name]) throw new Error(`missing ${name}`);
      return q[name];
    };
    const action = `${method} ${url.pathname.slice('/_control/'.length)}`;
    try {
      let body: unknown = { ok: true };
      switch (action) {
        case 'POST advance-time':
          await this.advanceTime(Number(need('ms')));
          break;
        case 'POST complete-checkout':
          body = await this.completeCheckout(need('session'), {
            withCard: q.with_card === undefined ? undefined : q.with_card === 'true',
            cardNumber: q.card_number,
            promotionCode: q.promotion_code,
            email: q.email,
          });
          break;
        case 'POST fail-next-payment':
          await this.failNextPayment(need('subscription'));
          break;
        case 'POST pay-invoice':
          await this.payInvoice(need('id'));
          break;
        case 'POST cancel-now':
          await this.cancelNow(need('subscription'));
          break;
        case 'POST set-status':
          await this.setStatus(need('subscription'), need('status') as SubscriptionStatus);
          break;
        case 'POST redeliver-failed':
          body = await this.redeliverFailed();
          break;
        case 'POST deliver-held':
          body = await this.deliverHeld();
          break;
        case 'GET events':
          body = this.events;
          break;
        case 'GET deliveries':
          body = this.deliveries;
          break;
        default:
          return this.sendJson(res, 404, { error: { message: `no control call ${action}` } });
      }
      this.sendJson(res, 200, body as StripeObject);
    } catch (err) {
      this.sendJson(res, 400, { error: { message: (err as Error).message } });
    }
  }

  private handleApi(req: IncomingMessage, res: ServerResponse, method: string, url: URL, raw: string): void {
    const requestId = newId('req_', 14);
    res.setHeader('request-id', requestId);
    res.setHeader('stripe-version', (req.headers['stripe-version'] as string | undefined) ?? API_VERSION);
    const params = parseQuery(method === 'POST' ? raw : url.search.slice(1), { depth: 10, arrayLimit: 100, parameterLimit: 10_000 }) as StripeObject;
    const idempotencyKey = method === 'POST' ? ((req.headers['idempotency-key'] as string | undefined) ?? null) : null;
    const record = (status: number) => this.requests.push({ method, path: url.pathname, params, idempotencyKey, status });
    const answer = (status: number, body: StripeObject) => {
      record(status);
      const hold = this.holds.findIndex((h) => h.method === method && h.path === url.pathname);
      if (hold < 0) return this.sendJson(res, status, body);
      const [{ arrived, released }] = this.holds.splice(hold, 1);
      const then = snapshot(body);
      arrived();
      void released.then(() => this.sendJson(res, status, then));
    };

    if (this.failures.count > 0) {
      this.failures.count -= 1;
      return answer(this.failures.status, { error: { type: 'api_error', message: 'An unknown error occurred (a failure the test asked for).' } });
    }
    const auth = this.checkAuth(req.headers.authorization);
    if (auth) return answer(401, auth.body);

    const route = this.routes.find((r) => r.method === method && r.pattern.test(url.pathname));
    if (!route) {
      const known = this.routes.some((r) => r.pattern.test(url.pathname));
      return answer(404, {
        error: {
          type: 'invalid_request_error',
          message: known ? `Unrecognized request URL (${method}: ${url.pathname}).` : `Unrecognized request URL (${method}: ${url.pathname}). This test server does not know it.`,
        },
      });
    }

    const paramsKey = JSON.stringify(params);
    const storeKey = idempotencyKey ? `${this.secretKey}:${idempotencyKey}` : null;
    if (storeKey) {
      const stored = this.idempotency.get(storeKey);
      if (stored) {
        if (stored.method !== method || stored.path !== url.pathname) {
          return answer(400, {
            error: {
              type: 'idempotency_error',
              message: `Keys for idempotent requests can only be used for the same endpoint they were first used for ('${stored.method} ${stored.path}' vs '${method} ${url.pathname}'). Try using a key other than '${idempotencyKey}' if you meant to execute a different request.`,
            },
          });
        }
        if (stored.params !== paramsKey) {
          return answer(400, {
            error: {
              type: 'idempotency_error',
              message: `Keys for idempotent requests can only be used with the same parameters they were first used with. Try using a key other than '${idempotencyKey}' if you meant to execute a different request.`,
            },
          });
        }
        res.setHeader('idempotent-replayed', 'true');
        res.setHeader('idempotency-key', idempotencyKey!);
        return answer(stored.status, snapshot(stored.body));
      }
      res.setHeader('idempotency-key', idempotencyKey!);
    }

    const match = route.pattern.exec(url.pathname)!;
    this.state.request = { id: requestId, idempotency_key: idempotencyKey };
    let status = 200;
    let body: StripeObject;
    let keep = true;
    try {
      body = route.handler({ params, id: decodeURIComponent(match[1] ?? ''), sub: match[2] ? decodeURIComponent(match[2]) : undefined });
    } catch (err) {
      if (!(err instanceof StripeApiError)) throw err;
      status = err.status;
      body = err.body;
      keep = !err.isParameterError;
    } finally {
      this.state.request = null;
    }
    if (storeKey && keep) this.idempotency.set(storeKey, { method, path: url.pathname, params: paramsKey, status, body: snapshot(body) });
    return answer(status, body);
  }

  private checkAuth(header: string | undefined): StripeApiError | null {
    if (!header) {
      return new StripeApiError(
        401,
        'invalid_request_error',
        "You did not provide an API key. You need to provide your API key in the Authorization header, using Bearer auth (e.g. 'Authorization: Bearer YOUR_SECRET_KEY').",
      );
    }
    let key = '';
    if (header.startsWith('Bearer ')) key = header.slice(7).trim();
    else if (header.startsWith('Basic ')) key = Buffer.from(header.slice(6), 'base64').toString('utf8').split(':')[0];
    if (key === this.secretKey) return null;
    const masked = key.length > 12 ? `${key.slice(0, 8)}${'*'.repeat(key.length - 12)}${key.slice(-4)}` : '****';
    return new StripeApiError(401, 'invalid_request_error', `Invalid API Key provided: ${masked}`, 'api_key_invalid');
  }

  private sendJson(res: ServerResponse, status: number, body: StripeObject): void {
    const text = JSON.stringify(body, null, 2);
    res.writeHead(status, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(text), 'cache-control': 'no-cache, no-store' });
    res.end(text);
  }

  private sendHtml(res: ServerResponse, status: number, html: string): void {
    res.writeHead(status, { 'content-type': 'text/html; charset=utf-8', 'content-length': Buffer.byteLength(html), 'cache-control': 'no-store' });
    res.end(html);
  }

  private redirect(res: ServerResponse, location: string): void {
    res.writeHead(303, { location, 'content-length': 0 });
    res.end();
  }

  // ---- API routes --------------------------------------------------------------------------------------

  private route(method: string, path: string, handler: Handler): void {
    const pattern = new RegExp(`^${path.replace(/:[a-z]+/g, '([^/]+)')}$`);
    this.routes.push({ method, pattern, handler });
  }

  private defineRoutes(): void {
    const s = this.state;
    const out = (object: StripeObject, params: StripeObject) => s.expand(object, expandPaths(params));
    const list = (items: StripeObject[], params: StripeObject, url: string) => s.expand(listPage(items, params, url), expandPaths(params));
    const listParams = ['limit', 'starting_after', 'ending_before', 'expand', 'created'];

    // Customers
    const customerFields = ['email', 'name', 'description', 'phone', 'metadata', 'expand', 'preferred_locales', 'address'];
    this.route('POST', '/v1/customers', ({ params }) => {
      checkKnownParams(params, customerFields);
      const customer = s.createCustomer({
        email: parseEmail(params.email, 'email'),
        name: optionalString(params, 'name'),
        description: optionalString(params, 'description'),
        phone: optionalString(params, 'phone'),
        metadata: applyMetadata({}, params.metadata),
      });
      return out(customer, params);
    });
    this.route('GET', '/v1/customers/:id', ({ params, id }) => {
      checkKnownParams(params, ['expand']);
      return out(s.get('customer', id), params);
    });
    this.route('POST', '/v1/customers/:id', ({ params, id }) => {
      checkKnownParams(params, [...customerFields, 'invoice_settings']);
      const customer = s.get('customer', id);
      const email = params.email === undefined ? undefined : parseEmail(params.email, 'email');
      const metadata = applyMetadata(customer.metadata, params.metadata);
      s.updateCustomer(customer, () => {
        if (email !== undefined) customer.email = email;
        for (const f of ['name', 'description', 'phone'] as const) if (params[f] !== undefined) customer[f] = params[f] === '' ? null : params[f];
        customer.metadata = metadata;
        const pm = params.invoice_settings?.default_payment_method;
        if (pm !== undefined) {
          if (pm !== '' && !s.paymentMethods.has(pm)) throw noSuch('PaymentMethod', pm, 'invoice_settings[default_payment_method]', 400);
          customer.invoice_settings.default_payment_method = pm === '' ? null : pm;
        }
      });
      return out(customer, params);
    });
    this.route('DELETE', '/v1/customers/:id', ({ id }) => s.deleteCustomer(s.get('customer', id)));
    this.route('GET', '/v1/customers', ({ params }) => {
      checkKnownParams(params, [...listParams, 'email']);
      const items = [...s.customers.values()].filter((c) => params.email === undefined || c.email === params.email);
      return list(items, params, '/v1/customers');
    });

    // Products and prices
    this.route('POST', '/v1/products', ({ params }) => {
      checkKnownParams(params, ['name', 'description', 'metadata', 'expand', 'active', 'id']);
      const product = s.createProduct({
        id: optionalString(params, 'id') ?? undefined,
        name: requireString(params, 'name'),
        description: optionalString(params, 'description'),
        metadata: applyMetadata({}, params.metadata),
      });
      return out(product, params);
    });
    this.route('GET', '/v1/products/:id', ({ params, id }) => {
      checkKnownParams(params, ['expand']);
      return out(s.get('product', id), params);
    });
    this.route('POST', '/v1/prices', ({ params }) => {
      checkKnownParams(params, ['currency', 'unit_amount', 'product', 'product_data', 'recurring', 'lookup_key', 'nickname', 'metadata', 'expand', 'active', 'transfer_lookup_key']);
      const currency = requireString(params, 'currency').toLowerCase();
      const unitAmount = parseInteger(params.unit_amount, 'unit_amount', 0);
      if (unitAmount === undefined) throw missingParam('unit_amount');
      const productParam = optionalString(params, 'product');
      let productId: string;
      if (productParam) productId = s.get('product', productParam, 'product', 400).id;
      else {
        const name = params.product_data?.name;
        if (typeof name !== 'string' || name === '') throw missingParam('product');
        productId = s.createProduct({ name }).id;
      }
      let recurring: { interval: 'day' | 'week' | 'month' | 'year'; interval_count: number } | null = null;
      if (params.recurring !== undefined) {
        const interval = params.recurring?.interval;
        if (!interval) throw missingParam('recurring[interval]');
        if (!['day', 'week', 'month', 'year'].includes(interval)) throw invalidParam('recurring[interval]', `Invalid recurring[interval]: must be one of day, week, month, or year`);
        recurring = { interval, interval_count: parseInteger(params.recurring.interval_count, 'recurring[interval_count]', 1, 12) ?? 1 };
      }
      const price = s.createPrice({
        product: productId,
        unitAmount,
        currency,
        recurring,
        lookupKey: optionalString(params, 'lookup_key'),
        nickname: optionalString(params, 'nickname'),
        metadata: applyMetadata({}, params.metadata),
      });
      return out(price, params);
    });
    this.route('GET', '/v1/prices/:id', ({ params, id }) => {
      checkKnownParams(params, ['expand']);
      return out(s.get('price', id), params);
    });
    this.route('GET', '/v1/prices', ({ params }) => {
      checkKnownParams(params, [...listParams, 'lookup_keys', 'product', 'active', 'type']);
      const keys: string[] | null = params.lookup_keys === undefined ? null : [].concat(params.lookup_keys);
      const items = [...s.prices.values()].filter(
        (p) =>
          (keys === null || keys.includes(p.lookup_key)) &&
          (params.product === undefined || p.product === params.product) &&
          (params.active === undefined || p.active === parseBoolean(params.active, 'active')) &&
          (params.type === undefined || p.type === params.type),
      );
      return list(items, params, '/v1/prices');
    });

    // Checkout Sessions
    this.route('POST', '/v1/checkout/sessions', ({ params }) => out(this.createCheckoutSession(params), params));
    this.route('GET', '/v1/checkout/sessions/:id', ({ params, id }) => {
      checkKnownParams(params, ['expand']);
      return out(s.get('checkout.session', id), params);
    });
    this.route('GET', '/v1/checkout/sessions', ({ params }) => {
      checkKnownParams(params, [...listParams, 'customer', 'subscription', 'status', 'payment_intent', 'payment_link']);
      const items = [...s.sessions.values()].filter(
        (c) =>
          (params.customer === undefined || c.customer === params.customer) &&
          (params.subscription === undefined || c.subscription === params.subscription) &&
          (params.status === undefined || c.status === params.status),
      );
      return list(items, params, '/v1/checkout/sessions');
    });
    this.route('GET', '/v1/checkout/sessions/:id/line_items', ({ params, id }) => {
      checkKnownParams(params, listParams);
      s.get('checkout.session', id);
      return s.lineItems(id);
    });
    this.route('POST', '/v1/checkout/sessions/:id/expire', ({ params, id }) => {
      checkKnownParams(params, ['expand']);
      const session = s.get('checkout.session', id);
      s.expireSession(session);
      return out(session, params);
    });

    // Subscriptions
    this.route('GET', '/v1/subscriptions/:id', ({ params, id }) => {
      checkKnownParams(params, ['expand']);
      return out(s.get('subscription', id), params);
    });
    this.route('POST', '/v1/subscriptions/:id', ({ params, id }) => out(this.updateSubscription(s.get('subscription', id), params), params));
    this.route('DELETE', '/v1/subscriptions/:id', ({ params, id }) => {
      checkKnownParams(params, ['expand', 'cancellation_details', 'invoice_now', 'prorate']);
      const sub = s.get('subscription', id);
      if (params.cancellation_details) {
        sub.cancellation_details = {
          ...sub.cancellation_details,
          comment: params.cancellation_details.comment ?? sub.cancellation_details.comment,
          feedback: params.cancellation_details.feedback ?? sub.cancellation_details.feedback,
        };
      }
      s.cancelNow(sub);
      return out(sub, params);
    });
    this.route('POST', '/v1/subscriptions/:id/resume', ({ params, id }) => {
      checkKnownParams(params, ['expand', 'billing_cycle_anchor', 'proration_behavior', 'proration_date']);
      const sub = s.get('subscription', id);
      s.resume(sub);
      return out(sub, params);
    });
    this.route('GET', '/v1/subscriptions', ({ params }) => {
      checkKnownParams(params, [...listParams, 'customer', 'price', 'status', 'current_period_end', 'current_period_start', 'collection_method', 'test_clock']);
      const status = params.status as string | undefined;
      const items = [...s.subscriptions.values()].filter(
        (sub) =>
          (params.customer === undefined || sub.customer === params.customer) &&
          (params.price === undefined || sub.items.data.some((i: StripeObject) => i.price.id === params.price)) &&
          (status === 'all' ||
            (status === undefined && sub.status !== 'canceled') ||
            (status === 'ended' && sub.status === 'canceled') ||
            sub.status === status),
      );
      return list(items, params, '/v1/subscriptions');
    });

    // Payment methods (the cards given at checkout, on the hosted invoice page or in tests)
    this.route('GET', '/v1/payment_methods/:id', ({ params, id }) => {
      checkKnownParams(params, ['expand']);
      return out(s.get('payment_method', id), params);
    });

    // Invoices
    this.route('GET', '/v1/invoices/:id', ({ params, id }) => {
      checkKnownParams(params, ['expand']);
      return out(s.get('invoice', id), params);
    });
    this.route('GET', '/v1/invoices', ({ params }) => {
      checkKnownParams(params, [...listParams, 'customer', 'subscription', 'status', 'collection_method', 'due_date']);
      const items = [...s.invoices.values()].filter(
        (i) =>
          (params.customer === undefined || i.customer === params.customer) &&
          (params.subscription === undefined || i.parent?.subscription_details?.subscription === params.subscription) &&
          (params.status === undefined || i.status === params.status),
      );
      return list(items, params, '/v1/invoices');
    });
    this.route('POST', '/v1/invoices/:id/pay', ({ params, id }) => {
      checkKnownParams(params, ['expand', 'payment_method', 'off_session']);
      const invoice = s.get('invoice', id);
      s.payInvoice(invoice);
      return out(invoice, params);
    });

    // Billing portal
    this.route('POST', '/v1/billing_portal/sessions', ({ params }) => {
      checkKnownParams(params, ['customer', 'return_url', 'expand', 'configuration', 'locale', 'flow_data', 'on_behalf_of']);
      const customerId = requireString(params, 'customer');
      s.get('customer', customerId, 'customer', 400);
      const returnUrl = params.return_url === undefined ? null : parseUrl(params.return_url, 'return_url');
      return out(s.createPortalSession(customerId, returnUrl), params);
    });

    // Events
    this.route('GET', '/v1/events/:id', ({ params, id }) => {
      checkKnownParams(params, ['expand']);
      return out(s.get('event', id), params);
    });
    this.route('GET', '/v1/events', ({ params }) => {
      checkKnownParams(params, [...listParams, 'type', 'types', 'delivery_success']);
      const types: string[] | null = params.types !== undefined ? [].concat(params.types) : params.type !== undefined ? [params.type] : null;
      const matches = (type: string) => types === null || types.some((t) => (t.endsWith('.*') ? type.startsWith(t.slice(0, -1)) : type === t));
      return list(
        s.events.filter((e) => matches(e.type)),
        params,
        '/v1/events',
      );
    });
  }

  private createCheckoutSession(params: StripeObject): StripeObject {
    const s = this.state;
    checkKnownParams(params, SESSION_PARAMS, SESSION_PARAMS_NOT_IMPLEMENTED);
    if (params.mode === undefined || params.mode === '') throw missingParam('mode');
    if (params.mode !== 'subscription') {
      throw invalidParam('mode', `This test server supports only mode=subscription (got '${String(params.mode)}').`);
    }
    if (params.ui_mode !== undefined && params.ui_mode !== 'hosted') throw invalidParam('ui_mode', 'This test server has only the hosted checkout page (ui_mode=hosted).');
    const successUrl = parseUrl(params.success_url, 'success_url');
    const cancelUrl = params.cancel_url === undefined ? null : parseUrl(params.cancel_url, 'cancel_url');

    if (params.line_items === undefined || params.line_items === '') throw missingParam('line_items');
    if (!Array.isArray(params.line_items) || params.line_items.length === 0) throw invalidParam('line_items', 'Invalid array', 'parameter_invalid');
    const lineItems = (params.line_items as StripeObject[]).map((item, i) => {
      const name = `line_items[${i}]`;
      if (typeof item !== 'object' || item === null) throw invalidParam(name, 'Invalid object');
      checkKnownParams(item, ['price', 'quantity'], ['price_data', 'adjustable_quantity', 'tax_rates', 'dynamic_tax_rates'], name);
      const priceId = requireString(item, 'price', `${name}[price]`);
      const price = s.get('price', priceId, `${name}[price]`, 400);
      if (!price.recurring) {
        throw invalidParam('line_items', 'You must provide at least one recurring price in `subscription` mode when using prices.');
      }
      if (item.quantity === undefined) {
        throw new StripeApiError(400, 'invalid_request_error', `Quantity is required. Add \`quantity\` to \`${name}\``, 'parameter_missing', `${name}[quantity]`);
      }
      const quantity = parseInteger(item.quantity, `${name}[quantity]`, 1, 999_999)!;
      return { price: price.id, quantity };
    });

    let customerId: string | null = optionalString(params, 'customer');
    const customerEmail = parseEmail(params.customer_email, 'customer_email');
    if (customerId && customerEmail) {
      throw invalidParam('customer_email', 'You may only specify one of these parameters: customer, customer_email.');
    }
    if (customerId) customerId = s.get('customer', customerId, 'customer', 400).id;
    const clientReferenceId = optionalString(params, 'client_reference_id');
    if (clientReferenceId && clientReferenceId.length > 200) throw invalidParam('client_reference_id', 'client_reference_id can have up to 200 characters.');

    const data = params.subscription_data ?? {};
    if (typeof data !== 'object' || Array.isArray(data)) throw invalidParam('subscription_data', 'Invalid object');
    checkKnownParams(data, SUBSCRIPTION_DATA_PARAMS, SUBSCRIPTION_DATA_NOT_IMPLEMENTED, 'subscription_data');
    const trialDays = parseInteger(data.trial_period_days, 'subscription_data[trial_period_days]', 1, 730);
    let trialSettings: { end_behavior: { missing_payment_method: 'cancel' | 'create_invoice' | 'pause' } } | undefined;
    if (data.trial_settings !== undefined) {
      const behaviour = data.trial_settings?.end_behavior?.missing_payment_method;
      if (behaviour === undefined) throw missingParam('subscription_data[trial_settings][end_behavior][missing_payment_method]');
      if (!['cancel', 'create_invoice', 'pause'].includes(behaviour)) {
        throw invalidParam(
          'subscription_data[trial_settings][end_behavior][missing_payment_method]',
          'Invalid subscription_data[trial_settings][end_behavior][missing_payment_method]: must be one of cancel, create_invoice, or pause',
        );
      }
      trialSettings = { end_behavior: { missing_payment_method: behaviour } };
    }

    const collection = params.payment_method_collection ?? 'always';
    if (collection !== 'always' && collection !== 'if_required') {
      throw invalidParam('payment_method_collection', 'Invalid payment_method_collection: must be one of always or if_required');
    }
    const passthrough: StripeObject = {};
    if (typeof params.locale === 'string') passthrough.locale = params.locale;
    if (typeof params.billing_address_collection === 'string') passthrough.billing_address_collection = params.billing_address_collection;

    return s.createCheckoutSession({
      customer: customerId,
      customerEmail,
      clientReferenceId,
      successUrl,
      cancelUrl,
      allowPromotionCodes: parseBoolean(params.allow_promotion_codes, 'allow_promotion_codes') ?? null,
      paymentMethodCollection: collection,
      metadata: applyMetadata({}, params.metadata),
      extras: {
        lineItems,
        subscriptionData: {
          trial_period_days: trialDays,
          trial_settings: trialSettings,
          metadata: applyMetadata({}, data.metadata, 'subscription_data[metadata]'),
          description: typeof data.description === 'string' ? data.description : undefined,
        },
      },
      passthrough,
    });
  }

  private updateSubscription(sub: StripeObject, params: StripeObject): StripeObject {
    const s = this.state;
    checkKnownParams(params, SUBSCRIPTION_UPDATE_PARAMS, SUBSCRIPTION_UPDATE_NOT_IMPLEMENTED);
    if (sub.status === 'canceled') {
      const other = Object.keys(params).filter((k) => !['metadata', 'cancellation_details', 'expand'].includes(k));
      if (other.length > 0) {
        throw new StripeApiError(400, 'invalid_request_error', 'A canceled subscription can only update its cancellation_details and metadata.', undefined, other[0]);
      }
    }
    const cancel = parseBoolean(params.cancel_at_period_end, 'cancel_at_period_end');
    const trialEnd = params.trial_end === undefined || params.trial_end === 'now' ? params.trial_end : parseInteger(params.trial_end, 'trial_end', 1);
    if (trialEnd !== undefined && sub.status !== 'trialing') throw invalidParam('trial_end', 'This subscription is not in a trial.');
    if (typeof trialEnd === 'number' && trialEnd <= s.now()) throw invalidParam('trial_end', 'Invalid timestamp: must be an integer Unix timestamp in the future.');
    const metadata = applyMetadata(sub.metadata, params.metadata);
    const pm = params.default_payment_method;
    if (pm !== undefined && pm !== '' && !s.paymentMethods.has(pm)) throw noSuch('PaymentMethod', pm, 'default_payment_method', 400);
    const change = () => {
      sub.metadata = metadata;
      if (params.description !== undefined) sub.description = params.description === '' ? null : params.description;
      if (pm !== undefined) sub.default_payment_method = pm === '' ? null : pm;
      if (params.cancellation_details) {
        sub.cancellation_details = {
          ...sub.cancellation_details,
          comment: params.cancellation_details.comment ?? sub.cancellation_details.comment,
          feedback: params.cancellation_details.feedback ?? sub.cancellation_details.feedback,
        };
      }
    };
    if (cancel === undefined) s.changeSubscription(sub, change);
    else s.setCancelAtPeriodEnd(sub, cancel, change);
    if (trialEnd === 'now') s.endTrialNow(sub);
    else if (trialEnd !== undefined) s.moveTrialEnd(sub, trialEnd);
    return sub;
  }

  // ---- hosted pages --------------------------------------------------------------------------------

  private handlePage(res: ServerResponse, method: string, path: string, raw: string): void {
    const s = this.state;
    let m = /^\/c\/pay\/([^/]+)$/.exec(path);
    if (m) {
      const session = s.sessions.get(decodeURIComponent(m[1]));
      if (!session) return this.sendHtml(res, 404, messagePage('Plink test checkout', 'This checkout session does not exist.'));
      if (session.status !== 'open') {
        const text = session.status === 'complete' ? 'This checkout session is already complete.' : 'This checkout session has expired.';
        return this.sendHtml(res, 410, messagePage('Plink test checkout', text));
      }
      const extras = s.sessionExtras.get(session.id)!;
      const price = s.prices.get(extras.lineItems[0].price)!;
      const model = {
        session,
        price,
        productName: s.products.get(price.product)?.name ?? 'the plan',
        trialDays: extras.subscriptionData.trial_period_days ?? 0,
        cardRequired: s.sessionNeedsCard(session),
        askEmail: !session.customer && !session.customer_email,
      };
      if (method === 'GET') return this.sendHtml(res, 200, checkoutPage(model));
      if (method !== 'POST') return this.sendHtml(res, 405, messagePage('Plink test checkout', 'Method not allowed.'));
      const form = parseQuery(raw) as Record<string, string>;
      const values = { email: form.email, promotion_code: form.promotion_code, card_number: form.card_number };
      const card = (form.card_number ?? '').replace(/[\s-]/g, '');
      let error: string | null = null;
      if (card === '' && model.cardRequired) error = 'Your card number is incomplete.';
      else if (card !== '' && !/^\d{13,19}$/.test(card)) error = 'Your card number is invalid.';
      if (error) return this.sendHtml(res, 200, checkoutPage({ ...model, error, values }));
      try {
        this.act(() =>
          s.completeCheckout(session, {
            withCard: card !== '',
            cardNumber: card === '' ? undefined : card,
            declineCard: card === '4000000000000002',
            promotionCode: form.promotion_code?.trim() || undefined,
            email: form.email?.trim() || undefined,
          }),
        );
      } catch (err) {
        if (!(err instanceof StripeApiError)) throw err;
        return this.sendHtml(res, 200, checkoutPage({ ...model, error: err.message, values }));
      }
      return this.redirect(res, session.success_url.replaceAll('{CHECKOUT_SESSION_ID}', session.id));
    }

    m = /^\/p\/session\/([^/]+)(?:\/(cancel|renew)\/([^/]+))?$/.exec(path);
    if (m) {
      const portal = s.portalSessions.get(decodeURIComponent(m[1]));
      if (!portal) return this.sendHtml(res, 404, messagePage('Plink test billing portal', 'This billing portal session does not exist.'));
      if (m[2] && method === 'POST') {
        const sub = s.subscriptions.get(decodeURIComponent(m[3]));
        if (!sub || sub.customer !== portal.customer) return this.sendHtml(res, 404, messagePage('Plink test billing portal', 'No such subscription.'));
        this.act(() => s.setCancelAtPeriodEnd(sub, m![2] === 'cancel'));
        return this.redirect(res, `/p/session/${portal.id}`);
      }
      const subs = [...s.subscriptions.values()].filter((sub) => sub.customer === portal.customer);
      return this.sendHtml(res, 200, portalPage(portal, s.customers.get(portal.customer), subs, (sub) => this.describeSubscription(sub)));
    }

    m = /^\/i\/([^/]+)$/.exec(path);
    if (m) {
      const invoice = s.invoices.get(decodeURIComponent(m[1]));
      if (!invoice) return this.sendHtml(res, 404, messagePage('Plink test invoice', 'This invoice does not exist.'));
      if (method === 'POST' && invoice.status === 'open') {
        this.act(() => s.payInvoice(invoice));
        return this.redirect(res, `/i/${invoice.id}`);
      }
      const amount = `$${(invoice.amount_due / 100).toFixed(2)}`;
      const html = messagePage('Plink test invoice', `Invoice ${invoice.number}: ${amount}, ${invoice.status === 'paid' ? 'paid' : 'not paid yet'}.`);
      const pay = invoice.status === 'open' ? `<form method="post" action="/i/${invoice.id}"><button type="submit">Pay ${amount}</button></form>\n</body>` : '</body>';
      return this.sendHtml(res, 200, html.replace('</body>', pay));
    }
    this.sendHtml(res, 404, messagePage('Not found', `Nothing at ${path}.`));
  }

  private describeSubscription(sub: StripeObject): string {
    const price = sub.items.data[0].price;
    const end = new Date(this.state.periodEnd(sub) * 1000).toISOString().slice(0, 10);
    const name = this.state.products.get(price.product)?.name ?? 'Plan';
    if (sub.status === 'canceled') return `${name}: canceled`;
    if (sub.cancel_at_period_end) return `${name}, ${describePrice(price)}: ends on ${end}`;
    if (sub.status === 'trialing') return `${name}, ${describePrice(price)}: trial until ${end}`;
    return `${name}, ${describePrice(price)}: ${sub.status}, renews on ${end}`;
  }
}

function readBody(req: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    req.on('data', (c: Buffer) => {
      size += c.length;
      if (size > 1_000_000) {
        reject(new Error('body too large'));
        req.destroy();
        return;
      }
      chunks.push(c);
    });
    req.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
    req.on('error', reject);
  });
}

