import { createHash } from 'node:crypto';
import {
  invalidParam,
  newId,
  noSuch,
  previousAttributes,
  snapshot,
  StripeApiError,
  type StripeObject,
} from './stripe-protocol';

/**
 * The state and the rules of the local Stripe server: customers, products, prices, Checkout Sessions,
 * subscriptions with their invoices, promotion codes, and the events every change makes. It owns a clock
 * that only moves forward (real time plus what the test added), and moves subscriptions through their life
 * when the clock passes their dates: trial_will_end 3 days before a trial ends, the trial's end (active with
 * a card, else what trial_settings.end_behavior.missing_payment_method says), renewals, cancel_at_period_end.
 *
 * Shapes follow the API version the installed SDK speaks: the billing period sits on the subscription items
 * (`items.data[0].current_period_start/end`), an invoice names its subscription under
 * `parent.subscription_details.subscription`.
 */

export const API_VERSION = '2026-10-28.endive';

const DAY = 86_400;

/** The card a payer gives when a test names none. */
const DEFAULT_CARD = '4242424242424242';
const CARD_BRANDS: Readonly<Record<string, string>> = { '3': 'amex', '4': 'visa', '5': 'mastercard', '6': 'discover' };

export type SubscriptionStatus = 'trialing' | 'active' | 'past_due' | 'canceled' | 'unpaid' | 'paused' | 'incomplete';

/** What the test server knows about a subscription beyond its Stripe object. */
interface SubscriptionExtras {
  failNextPayment: boolean;
  trialWillEndSent: boolean;
  /** A `duration: once` coupon applies to the first invoice that costs something. */
  onceDiscountUsed: boolean;
}

/** What a Checkout Session was created with that its Stripe object does not show. */
export interface CheckoutSessionExtras {
  lineItems: { price: string; quantity: number }[];
  subscriptionData: {
    trial_period_days?: number;
    trial_settings?: { end_behavior: { missing_payment_method: 'cancel' | 'create_invoice' | 'pause' } };
    metadata: Record<string, string>;
    description?: string;
  };
}

export interface CompleteCheckoutOptions {
  /** A card given at checkout. Default: when the session asks for one (no trial, or payment_method_collection=always). */
  withCard?: boolean;
  /**
   * The number of that card (implies a card given). Its PaymentMethod carries `card.fingerprint`, the same
   * for every use of one number, as Stripe's does. Without it, the card is the customer's own (see createCard).
   */
  cardNumber?: string;
  /** A card the bank declines: the session stays open and the error says why. */
  declineCard?: boolean;
  promotionCode?: string;
  /** The payer's e-mail when the session has neither customer nor customer_email. */
  email?: string;
}

interface Transition {
  at: number;
  run: () => void;
}

export class StripeState {
  readonly customers = new Map<string, StripeObject>();
  readonly products = new Map<string, StripeObject>();
  readonly prices = new Map<string, StripeObject>();
  readonly sessions = new Map<string, StripeObject>();
  readonly sessionExtras = new Map<string, CheckoutSessionExtras>();
  readonly subscriptions = new Map<string, StripeObject>();
  readonly invoices = new Map<string, StripeObject>();
  readonly paymentMethods = new Map<string, StripeObject>();
  readonly portalSessions = new Map<string, StripeObject>();
  readonly coupons = new Map<string, StripeObject>();
  readonly promotionCodes = new Map<string, StripeObject>();
  readonly discounts = new Map<string, StripeObject>();
  readonly events: StripeObject[] = [];
  private readonly subExtras = new Map<string, SubscriptionExtras>();
  private offsetMs = 0;
  /** The API request being answered (an event's `request`); null for the clock and the hosted pages. */
  request: { id: string; idempotency_key: string | null } | null = null;

  constructor(
    private readonly baseUrl: () => string,
    private readonly hasWebhookEndpoint: () => boolean,
    private readonly onEvent: (event: StripeObject) => void,
  ) {}

  // ---- clock ---------------------------------------------------------------------------------------

  /** The server's time, unix seconds. */
  now(): number {
    return Math.floor((Date.now() + this.offsetMs) / 1000);
  }

  /** Moves the clock to `unix` and runs every transition due on the way, in time order. */
  advanceTo(unix: number): void {
    for (let step = 0; step < 100_000; step += 1) {
      const next = this.nextTransition();
      if (!next || next.at > unix) break;
      this.setClock(next.at);
      next.run();
    }
    this.setClock(unix);
  }

  private setClock(unix: number): void {
    const offset = unix * 1000 - Date.now();
    if (offset > this.offsetMs) this.offsetMs = offset;
  }

  private nextTransition(): Transition | null {
    const due: Transition[] = [];
    for (const sub of this.subscriptions.values()) {
      const extras = this.extras(sub.id);
      const cancelAt: number | null = sub.cancel_at;
      if (sub.status === 'trialing') {
        if (!extras.trialWillEndSent) {
          due.push({ at: sub.trial_end - 3 * DAY, run: () => this.trialWillEnd(sub) });
        }
        if (cancelAt !== null && cancelAt <= sub.trial_end) due.push({ at: cancelAt, run: () => this.endAsRequested(sub) });
        else due.push({ at: sub.trial_end, run: () => this.endTrial(sub) });
      } else if (sub.status === 'active' || sub.status === 'past_due' || sub.status === 'unpaid') {
        const periodEnd = this.periodEnd(sub);
        if (cancelAt !== null && cancelAt <= periodEnd) due.push({ at: cancelAt, run: () => this.endAsRequested(sub) });
        else if (sub.status === 'active') due.push({ at: periodEnd, run: () => this.renew(sub) });
      }
    }
    for (const session of this.sessions.values()) {
      if (session.status === 'open') due.push({ at: session.expires_at, run: () => this.expireSession(session) });
    }
    due.sort((a, b) => a.at - b.at);
    return due[0] ?? null;
  }

  // ---- events --------------------------------------------------------------------------------------

  emit(type: string, object: StripeObject, previous?: StripeObject): StripeObject {
    const event: StripeObject = {
      id: newId('evt_'),
      object: 'event',
      api_version: API_VERSION,
      created: this.now(),
      data: previous ? { object: snapshot(object), previous_attributes: previous } : { object: snapshot(object) },
      livemode: false,
      pending_webhooks: this.hasWebhookEndpoint() ? 1 : 0,
      request: this.request ? { ...this.request } : { id: null, idempotency_key: null },
      type,
    };
    this.events.push(event);
    this.onEvent(event);
    return event;
  }

  /** Runs `change` on a subscription and emits customer.subscription.updated with what changed. */
  private update(sub: StripeObject, change: () => void): void {
    const before = snapshot(sub);
    change();
    const previous = previousAttributes(before, sub);
    if (Object.keys(previous).length > 0) this.emit('customer.subscription.updated', sub, previous);
  }

  // ---- lookups -------------------------------------------------------------------------------------

  get(kind: 'customer' | 'subscription' | 'checkout.session' | 'price' | 'product' | 'invoice' | 'event' | 'payment_method', id: string, param = 'id', status = 404): StripeObject {
    const found = this.find(id);
    if (!found || found.object !== kind) throw noSuch(kind, id, param, status);
    return found;
  }

  /** Any stored object by its id (the prefix tells the kind), for `expand` and the lookups. */
  find(id: string): StripeObject | undefined {
    const [prefix] = id.split('_', 1);
    switch (prefix) {
      case 'cus':
        return this.customers.get(id);
      case 'prod':
        return this.products.get(id);
      case 'price':
        return this.prices.get(id);
      case 'cs':
        return this.sessions.get(id);
      case 'sub':
        return this.subscriptions.get(id);
      case 'in':
        return this.invoices.get(id);
      case 'pm':
        return this.paymentMethods.get(id);
      case 'promo':
        return this.promotionCodes.get(id);
      case 'di':
        return this.discounts.get(id);
      case 'evt':
        return this.events.find((e) => e.id === id);
      case 'bps':
        return this.portalSessions.get(id);
      default:
        return this.coupons.get(id) ?? this.prices.get(id) ?? this.products.get(id);
    }
  }

  /**
   * A copy of `object` with the `expand` paths replaced by the objects they name (`subscription`,
   * `subscription.latest_invoice`, `data.customer` in lists, `line_items` of a Checkout Session).
   */
  expand(object: StripeObject, paths: string[]): StripeObject {
    const copy = snapshot(object);
    for (const path of paths) this.expandPath(copy, path.split('.'), path);
    return copy;
  }

  private expandPath(target: StripeObject, parts: string[], whole: string): void {
    const [head, ...rest] = parts;
    if (target.object === 'list' && head === 'data') {
      for (const item of target.data as StripeObject[]) if (rest.length) this.expandPath(item, rest, whole);
      return;
    }
    if (target.object === 'checkout.session' && head === 'line_items') {
      target.line_items = this.lineItems(target.id);
      if (rest.length) this.expandPath(target.line_items, rest, whole);
      return;
    }
    if (!(head in target)) throw invalidParam('expand', `This property cannot be expanded (${whole}).`);
    let value = target[head];
    if (Array.isArray(value)) {
      value = value.map((v) => (typeof v === 'string' ? snapshot(this.find(v) ?? v) : v));
      target[head] = value;
      if (rest.length) for (const v of value) if (v && typeof v === 'object') this.expandPath(v, rest, whole);
      return;
    }
    if (typeof value === 'string') {
      const found = this.find(value);
      if (!found) throw invalidParam('expand', `This property cannot be expanded (${whole}).`);
      value = snapshot(found);
      target[head] = value;
    }
    if (value && typeof value === 'object' && rest.length) this.expandPath(value, rest, whole);
  }

  lineItems(sessionId: string): StripeObject {
    const extras = this.sessionExtras.get(sessionId);
    const data = (extras?.lineItems ?? []).map((li) => {
      const price = this.prices.get(li.price)!;
      const amount = price.unit_amount * li.quantity;
      return {
        id: newId('li_'),
        object: 'item',
        amount_discount: 0,
        amount_subtotal: amount,
        amount_tax: 0,
        amount_total: amount,
        currency: price.currency,
        description: this.products.get(price.product)?.name ?? null,
        price: snapshot(price),
        quantity: li.quantity,
      };
    });
    return { object: 'list', data, has_more: false, url: `/v1/checkout/sessions/${sessionId}/line_items` };
  }

  // ---- customers, products, prices, promotion codes -----------------------------------------------

  createCustomer(fields: { email?: string | null; name?: string | null; description?: string | null; phone?: string | null; metadata?: Record<string, string> }): StripeObject {
    const customer: StripeObject = {
      id: newId('cus_', 14),
      object: 'customer',
      address: null,
      balance: 0,
      created: this.now(),
      currency: null,
      default_source: null,
      delinquent: false,
      description: fields.description ?? null,
      email: fields.email ?? null,
      invoice_prefix: newId('', 8).toUpperCase(),
      invoice_settings: { custom_fields: null, default_payment_method: null, footer: null, rendering_options: null },
      livemode: false,
      metadata: fields.metadata ?? {},
      name: fields.name ?? null,
      phone: fields.phone ?? null,
      preferred_locales: [],
      shipping: null,
      tax_exempt: 'none',
      test_clock: null,
    };
    this.customers.set(customer.id, customer);
    this.emit('customer.created', customer);
    return customer;
  }

  updateCustomer(customer: StripeObject, change: () => void): void {
    const before = snapshot(customer);
    change();
    const previous = previousAttributes(before, customer);
    if (Object.keys(previous).length > 0) this.emit('customer.updated', customer, previous);
  }

  /** Deletes the customer; Stripe cancels its subscriptions at once. */
  deleteCustomer(customer: StripeObject): StripeObject {
    for (const sub of this.subscriptions.values()) {
      if (sub.customer === customer.id && sub.status !== 'canceled') this.cancelNow(sub);
    }
    this.customers.delete(customer.id);
    this.emit('customer.deleted', customer);
    return { id: customer.id, object: 'customer', deleted: true };
  }

  createProduct(fields: { id?: string; name: string; description?: string | null; metadata?: Record<string, string> }): StripeObject {
    const product: StripeObject = {
      id: fields.id ?? newId('prod_', 14),
      object: 'product',
      active: true,
      created: this.now(),
      default_price: null,
      description: fields.description ?? null,
      images: [],
      livemode: false,
      marketing_features: [],
      metadata: fields.metadata ?? {},
      name: fields.name,
      package_dimensions: null,
      shippable: null,
      statement_descriptor: null,
      tax_code: null,
      type: 'service',
      unit_label: null,
      updated: this.now(),
      url: null,
    };
    this.products.set(product.id, product);
    return product;
  }

  createPrice(fields: {
    id?: string;
    product: string;
    unitAmount: number;
    currency: string;
    recurring: { interval: 'day' | 'week' | 'month' | 'year'; interval_count: number } | null;
    lookupKey?: string | null;
    nickname?: string | null;
    metadata?: Record<string, string>;
  }): StripeObject {
    if (fields.lookupKey) {
      for (const p of this.prices.values()) {
        if (p.lookup_key === fields.lookupKey) throw invalidParam('lookup_key', `A price (\`${p.id}\`) already uses that lookup key.`);
      }
    }
    const price: StripeObject = {
      id: fields.id ?? newId('price_', 24),
      object: 'price',
      active: true,
      billing_scheme: 'per_unit',
      created: this.now(),
      currency: fields.currency,
      custom_unit_amount: null,
      livemode: false,
      lookup_key: fields.lookupKey ?? null,
      metadata: fields.metadata ?? {},
      nickname: fields.nickname ?? null,
      product: fields.product,
      recurring: fields.recurring
        ? { interval: fields.recurring.interval, interval_count: fields.recurring.interval_count, meter: null, trial_period_days: null, usage_type: 'licensed' }
        : null,
      tax_behavior: 'unspecified',
      tiers_mode: null,
      transform_quantity: null,
      type: fields.recurring ? 'recurring' : 'one_time',
      unit_amount: fields.unitAmount,
      unit_amount_decimal: String(fields.unitAmount),
    };
    this.prices.set(price.id, price);
    const product = this.products.get(fields.product);
    if (product && product.default_price === null) product.default_price = price.id;
    return price;
  }

  createPromotionCode(code: string, coupon: { percentOff: number; duration: 'once' | 'forever'; name?: string }): StripeObject {
    const couponObject: StripeObject = {
      id: newId('', 8),
      object: 'coupon',
      amount_off: null,
      created: this.now(),
      currency: null,
      duration: coupon.duration,
      duration_in_months: null,
      livemode: false,
      max_redemptions: null,
      metadata: {},
      name: coupon.name ?? `${coupon.percentOff}% off`,
      percent_off: coupon.percentOff,
      redeem_by: null,
      times_redeemed: 0,
      valid: true,
    };
    this.coupons.set(couponObject.id, couponObject);
    const promotion: StripeObject = {
      id: newId('promo_', 24),
      object: 'promotion_code',
      active: true,
      code,
      created: this.now(),
      customer: null,
      customer_account: null,
      expires_at: null,
      livemode: false,
      max_redemptions: null,
      metadata: {},
      promotion: { coupon: couponObject.id, type: 'coupon' },
      restrictions: { first_time_transaction: false, minimum_amount: null, minimum_amount_currency: null },
      times_redeemed: 0,
    };
    this.promotionCodes.set(promotion.id, promotion);
    return promotion;
  }

  findPromotionCode(code: string): StripeObject | undefined {
    const wanted = code.trim().toLowerCase();
    return [...this.promotionCodes.values()].find((p) => p.active && p.code.toLowerCase() === wanted);
  }

  // ---- Checkout Sessions ----------------------------------------------------------------------------

  createCheckoutSession(fields: {
    customer: string | null;
    customerEmail: string | null;
    clientReferenceId: string | null;
    successUrl: string;
    cancelUrl: string | null;
    allowPromotionCodes: boolean | null;
    paymentMethodCollection: 'always' | 'if_required';
    metadata: Record<string, string>;
    extras: CheckoutSessionExtras;
    passthrough: StripeObject;
  }): StripeObject {
    const id = newId('cs_test_', 58);
    const created = this.now();
    const amount = this.firstAmount(fields.extras);
    const customer = fields.customer ? this.customers.get(fields.customer) : undefined;
    const session: StripeObject = {
      id,
      object: 'checkout.session',
      after_expiration: null,
      allow_promotion_codes: fields.allowPromotionCodes,
      amount_subtotal: amount,
      amount_total: amount,
      automatic_tax: { enabled: false, liability: null, provider: null, status: null },
      billing_address_collection: null,
      cancel_url: fields.cancelUrl,
      client_reference_id: fields.clientReferenceId,
      client_secret: null,
      consent: null,
      consent_collection: null,
      created,
      currency: 'usd',
      custom_fields: [],
      custom_text: { after_submit: null, shipping_address: null, submit: null, terms_of_service_acceptance: null },
      customer: fields.customer,
      customer_creation: fields.customer ? null : 'always',
      customer_details: customer ? { address: null, email: customer.email, name: customer.name, phone: null, tax_exempt: 'none', tax_ids: [] } : null,
      customer_email: fields.customerEmail,
      discounts: [],
      expires_at: created + DAY,
      invoice: null,
      invoice_creation: null,
      livemode: false,
      locale: null,
      metadata: fields.metadata,
      mode: 'subscription',
      payment_intent: null,
      payment_link: null,
      payment_method_collection: fields.paymentMethodCollection,
      payment_method_options: {},
      payment_method_types: ['card'],
      payment_status: 'unpaid',
      phone_number_collection: { enabled: false },
      recovered_from: null,
      setup_intent: null,
      shipping_address_collection: null,
      shipping_cost: null,
      shipping_options: [],
      status: 'open',
      submit_type: null,
      subscription: null,
      success_url: fields.successUrl,
      total_details: { amount_discount: 0, amount_shipping: 0, amount_tax: 0 },
      ui_mode: 'hosted',
      url: `${this.baseUrl()}/c/pay/${id}`,
      ...fields.passthrough,
    };
    this.sessions.set(id, session);
    this.sessionExtras.set(id, fields.extras);
    return session;
  }

  sessionHasTrial(sessionId: string): boolean {
    return (this.sessionExtras.get(sessionId)?.subscriptionData.trial_period_days ?? 0) > 0;
  }

  /** Whether the hosted page asks for a card: always without a trial, or when the session says `always`. */
  sessionNeedsCard(session: StripeObject): boolean {
    return !this.sessionHasTrial(session.id) || session.payment_method_collection !== 'if_required';
  }

  /**
   * The payer finishes checkout: a customer when there was none, the subscription (trialing, or active
   * with a paid first invoice), the session complete; the events in Stripe's order. Throws a StripeApiError
   * (and changes nothing) for a session that is not open, an unknown promotion code, or a declined card.
   */
  completeCheckout(session: StripeObject, options: CompleteCheckoutOptions = {}): StripeObject {
    if (session.status !== 'open') {
      throw new StripeApiError(400, 'invalid_request_error', `This Checkout Session is ${session.status === 'complete' ? 'already complete' : 'expired'}.`, 'checkout_session_not_open');
    }
    const extras = this.sessionExtras.get(session.id)!;
    const trialDays = extras.subscriptionData.trial_period_days ?? 0;
    const needsCard = this.sessionNeedsCard(session);
    const withCard = options.withCard ?? (options.cardNumber !== undefined || needsCard);
    if (needsCard && !withCard) throw invalidParam('payment_method', 'This checkout needs a card.');
    if (options.declineCard) throw new StripeApiError(402, 'card_error', 'Your card was declined.', 'card_declined');
    let promotion: StripeObject | undefined;
    if (options.promotionCode) {
      if (!session.allow_promotion_codes) throw invalidParam('promotion_code', 'This checkout does not take promotion codes.');
      promotion = this.findPromotionCode(options.promotionCode);
      if (!promotion) throw invalidParam('promotion_code', 'This code is invalid.', 'promotion_code_invalid');
    }
    const email = session.customer_email ?? options.email ?? null;
    if (!session.customer && !email) throw invalidParam('email', 'An e-mail address is needed to complete this checkout.');

    const customer = session.customer ? this.customers.get(session.customer)! : this.createCustomer({ email });
    let paymentMethod: string | null = null;
    if (withCard) {
      paymentMethod = this.createCard(customer.id, options.cardNumber).id;
    }
    const price = this.prices.get(extras.lineItems[0].price)!;
    const now = this.now();
    const trialEnd = trialDays > 0 ? now + trialDays * DAY : null;
    const periodEnd = trialEnd ?? addInterval(now, price.recurring);
    const subId = newId('sub_', 24);
    const itemId = newId('si_', 14);
    const sub: StripeObject = {
      id: subId,
      object: 'subscription',
      application: null,
      application_fee_percent: null,
      automatic_tax: { disabled_reason: null, enabled: false, liability: null },
      billing_cycle_anchor: periodEnd,
      billing_cycle_anchor_config: null,
      billing_mode: { flexible: null, type: 'classic' },
      cancel_at: null,
      cancel_at_period_end: false,
      canceled_at: null,
      cancellation_details: { comment: null, feedback: null, reason: null },
      collection_method: 'charge_automatically',
      created: now,
      currency: price.currency,
      customer: customer.id,
      days_until_due: null,
      default_payment_method: paymentMethod,
      default_source: null,
      default_tax_rates: [],
      description: extras.subscriptionData.description ?? null,
      discounts: [],
      ended_at: null,
      invoice_settings: { account_tax_ids: null, issuer: { type: 'self' } },
      items: {
        object: 'list',
        data: extras.lineItems.map((li, i) => {
          const p = this.prices.get(li.price)!;
          return {
            id: i === 0 ? itemId : newId('si_', 14),
            object: 'subscription_item',
            billing_thresholds: null,
            created: now,
            current_period_end: periodEnd,
            current_period_start: now,
            discounts: [],
            metadata: {},
            plan: planOf(p),
            price: snapshot(p),
            quantity: li.quantity,
            subscription: subId,
            tax_rates: [],
          };
        }),
        has_more: false,
        total_count: extras.lineItems.length,
        url: `/v1/subscription_items?subscription=${subId}`,
      },
      latest_invoice: null,
      livemode: false,
      metadata: { ...extras.subscriptionData.metadata },
      next_pending_invoice_item_invoice: null,
      on_behalf_of: null,
      pause_collection: null,
      payment_settings: { payment_method_options: null, payment_method_types: null, save_default_payment_method: 'off' },
      pending_invoice_item_interval: null,
      pending_setup_intent: null,
      pending_update: null,
      schedule: null,
      start_date: now,
      status: trialEnd ? 'trialing' : 'active',
      test_clock: null,
      transfer_data: null,
      trial_end: trialEnd,
      trial_settings: trialEnd
        ? { end_behavior: { missing_payment_method: extras.subscriptionData.trial_settings?.end_behavior.missing_payment_method ?? 'create_invoice' } }
        : null,
      trial_start: trialEnd ? now : null,
    };
    this.subscriptions.set(subId, sub);
    this.subExtras.set(subId, {
      failNextPayment: false,
      // Stripe sends trial_will_end 3 days before the end; a shorter trial gets none.
      trialWillEndSent: trialEnd === null || trialEnd - 3 * DAY <= now,
      onceDiscountUsed: false,
    });
    if (promotion) {
      const discount = this.createDiscount(promotion, customer.id, subId, session.id);
      sub.discounts = [discount.id];
      session.discounts = [{ coupon: discount.source.coupon, promotion_code: promotion.id }];
    }
    const invoice = this.createInvoice(sub, 'subscription_create', now, periodEnd, trialEnd !== null);
    // The first payment is taken on the card just given; a declined card was refused above.
    this.markPaid(invoice);
    sub.latest_invoice = invoice.id;

    session.status = 'complete';
    session.payment_status = invoice.amount_paid > 0 ? 'paid' : 'no_payment_required';
    session.customer = customer.id;
    session.customer_details = { address: null, email: customer.email, name: customer.name, phone: null, tax_exempt: 'none', tax_ids: [] };
    session.subscription = subId;
    session.invoice = invoice.id;
    session.amount_subtotal = invoice.subtotal;
    session.amount_total = invoice.total;
    session.total_details = { amount_discount: invoice.subtotal - invoice.total, amount_shipping: 0, amount_tax: 0 };
    session.url = null;

    this.emit('customer.subscription.created', sub);
    this.emit('invoice.paid', invoice);
    this.emit('checkout.session.completed', session);
    return session;
  }

  expireSession(session: StripeObject): void {
    if (session.status !== 'open') {
      throw invalidParam('session', `Only Checkout Sessions with a status in ["open"] can be expired.`, 'checkout_session_not_open');
    }
    session.status = 'expired';
    session.url = null;
    this.emit('checkout.session.expired', session);
  }

  // ---- subscriptions -------------------------------------------------------------------------------

  extras(subId: string): SubscriptionExtras {
    return this.subExtras.get(subId)!;
  }

  periodEnd(sub: StripeObject): number {
    return sub.items.data[0].current_period_end;
  }

  private setPeriod(sub: StripeObject, start: number, end: number): void {
    for (const item of sub.items.data) {
      item.current_period_start = start;
      item.current_period_end = end;
    }
  }

  private paymentMethodOf(sub: StripeObject): string | null {
    return sub.default_payment_method ?? this.customers.get(sub.customer)?.invoice_settings.default_payment_method ?? null;
  }

  /** `cancel_at_period_end` on or off (a POST /v1/subscriptions/:id); emits customer.subscription.updated. */
  setCancelAtPeriodEnd(sub: StripeObject, value: boolean, change: () => void = () => undefined): void {
    this.update(sub, () => {
      change();
      if (value && !sub.cancel_at_period_end) {
        sub.cancel_at_period_end = true;
        sub.cancel_at = sub.status === 'trialing' ? sub.trial_end : this.periodEnd(sub);
        sub.canceled_at = this.now();
        sub.cancellation_details = { ...sub.cancellation_details, reason: 'cancellation_requested' };
      } else if (!value && sub.cancel_at_period_end) {
        sub.cancel_at_period_end = false;
        sub.cancel_at = null;
        sub.canceled_at = null;
        sub.cancellation_details = { comment: null, feedback: null, reason: null };
      }
    });
  }

  /** Metadata or description changes (a POST /v1/subscriptions/:id without a cancel flag). */
  changeSubscription(sub: StripeObject, change: () => void): void {
    this.update(sub, change);
  }

  /** Ends the subscription now (DELETE /v1/subscriptions/:id): customer.subscription.deleted. */
  cancelNow(sub: StripeObject, reason: string = 'cancellation_requested'): void {
    // Stripe treats a canceled subscription as gone for a second cancel (it can still be retrieved).
    if (sub.status === 'canceled') throw noSuch('subscription', sub.id);
    const now = this.now();
    sub.status = 'canceled';
    sub.canceled_at = sub.canceled_at ?? now;
    sub.ended_at = now;
    sub.cancellation_details = { ...sub.cancellation_details, reason: sub.cancellation_details.reason ?? reason };
    this.emit('customer.subscription.deleted', sub);
  }

  private endAsRequested(sub: StripeObject): void {
    const now = this.now();
    sub.status = 'canceled';
    sub.ended_at = now;
    this.emit('customer.subscription.deleted', sub);
  }

  private trialWillEnd(sub: StripeObject): void {
    this.extras(sub.id).trialWillEndSent = true;
    this.emit('customer.subscription.trial_will_end', sub);
  }

  /** The trial's end: charge the card, or do what trial_settings says when there is none. */
  private endTrial(sub: StripeObject, start = this.periodEnd(sub), reason = 'subscription_cycle', change: () => void = () => undefined): void {
    const extras = this.extras(sub.id);
    extras.trialWillEndSent = true;
    if (this.paymentMethodOf(sub)) {
      this.chargePeriod(sub, reason, start, change);
      return;
    }
    const behaviour = sub.trial_settings?.end_behavior.missing_payment_method ?? 'create_invoice';
    if (behaviour === 'cancel') {
      const now = this.now();
      change();
      sub.status = 'canceled';
      sub.canceled_at = now;
      sub.ended_at = now;
      sub.cancellation_details = { ...sub.cancellation_details, reason: 'cancellation_requested' };
      this.emit('customer.subscription.deleted', sub);
    } else if (behaviour === 'pause') {
      this.update(sub, () => {
        change();
        sub.status = 'paused';
      });
      this.emit('customer.subscription.paused', sub);
    } else {
      this.chargePeriod(sub, reason, start, change);
    }
  }

  /**
   * `trial_end: 'now'` (POST /v1/subscriptions/:id): the trial ends at once and a period starts now, charged
   * to the card (or, without one, what trial_settings says), as at the trial's end.
   */
  endTrialNow(sub: StripeObject): void {
    if (sub.status !== 'trialing') throw invalidParam('trial_end', 'This subscription is not in a trial.');
    const now = this.now();
    this.endTrial(sub, now, 'subscription_update', () => {
      sub.trial_end = now;
      sub.billing_cycle_anchor = now;
    });
  }

  /** `trial_end: <a later time>` on a trialing subscription: the trial (and its period) ends then. */
  moveTrialEnd(sub: StripeObject, at: number): void {
    if (sub.status !== 'trialing') throw invalidParam('trial_end', 'This subscription is not in a trial.');
    if (at <= this.now()) throw invalidParam('trial_end', 'Invalid timestamp: must be an integer Unix timestamp in the future.');
    this.update(sub, () => {
      sub.trial_end = at;
      sub.billing_cycle_anchor = at;
      for (const item of sub.items.data) item.current_period_end = at;
      if (sub.cancel_at_period_end) sub.cancel_at = at;
    });
    this.extras(sub.id).trialWillEndSent = at - 3 * DAY <= this.now();
  }

  private renew(sub: StripeObject): void {
    this.chargePeriod(sub, 'subscription_cycle');
  }

  /**
   * A new period starts at the old one's end and its invoice is charged: active and invoice.paid, or
   * past_due and invoice.payment_failed (no card, or failNextPayment). The period moves on either way.
   */
  private chargePeriod(sub: StripeObject, reason: string, start = this.periodEnd(sub), change: () => void = () => undefined): void {
    const extras = this.extras(sub.id);
    const price = sub.items.data[0].price;
    const end = addInterval(start, price.recurring);
    const invoice = this.createInvoice(sub, reason, start, end, false);
    const pays = this.paymentMethodOf(sub) !== null && !extras.failNextPayment;
    extras.failNextPayment = false;
    if (pays || invoice.amount_due === 0) this.markPaid(invoice);
    else this.markFailed(invoice);
    this.update(sub, () => {
      change();
      this.setPeriod(sub, start, end);
      sub.latest_invoice = invoice.id;
      sub.status = invoice.status === 'paid' ? 'active' : 'past_due';
    });
    this.emit(invoice.status === 'paid' ? 'invoice.paid' : 'invoice.payment_failed', invoice);
  }

  failNextPayment(sub: StripeObject): void {
    this.extras(sub.id).failNextPayment = true;
  }

  /** Pays an open invoice (with a card the customer just gave): invoice.paid, and the subscription active again. */
  payInvoice(invoice: StripeObject): void {
    if (invoice.status === 'paid') throw invalidParam('invoice', 'Invoice is already paid', 'invoice_already_paid');
    const subId: string | undefined = invoice.parent?.subscription_details?.subscription;
    const sub = subId ? this.subscriptions.get(subId) : undefined;
    if (sub && !this.paymentMethodOf(sub)) sub.default_payment_method = this.createCard(sub.customer).id;
    this.markPaid(invoice);
    this.emit('invoice.paid', invoice);
    if (sub && (sub.status === 'past_due' || sub.status === 'unpaid' || sub.status === 'incomplete')) {
      this.update(sub, () => {
        sub.status = 'active';
      });
    }
  }

  /** The latest open invoice of a subscription. */
  openInvoiceOf(sub: StripeObject): StripeObject | undefined {
    return [...this.invoices.values()].reverse().find((i) => i.status === 'open' && i.parent?.subscription_details?.subscription === sub.id);
  }

  pause(sub: StripeObject): void {
    if (sub.status === 'canceled') throw invalidParam('status', 'A canceled subscription cannot be paused.');
    if (sub.status === 'paused') return;
    this.update(sub, () => {
      sub.status = 'paused';
    });
    this.emit('customer.subscription.paused', sub);
  }

  /** POST /v1/subscriptions/:id/resume: a new period from now, charged at once. */
  resume(sub: StripeObject): void {
    if (sub.status !== 'paused') throw invalidParam('subscription', 'Only a paused subscription can be resumed.');
    this.chargePeriod(sub, 'subscription_update', this.now());
    this.emit('customer.subscription.resumed', sub);
  }

  /** Any other status a test wants (past_due, unpaid, active, incomplete): customer.subscription.updated. */
  setStatus(sub: StripeObject, status: SubscriptionStatus): void {
    if (status === 'canceled') return this.cancelNow(sub);
    if (status === 'paused') return this.pause(sub);
    if (sub.status === 'canceled') throw invalidParam('status', 'A canceled subscription cannot change its status.');
    const wasPaused = sub.status === 'paused';
    this.update(sub, () => {
      sub.status = status;
    });
    if (wasPaused) this.emit('customer.subscription.resumed', sub);
  }

  // ---- invoices, cards, discounts ------------------------------------------------------------------

  /**
   * A card of the customer. Without a number it stands for the payer's own card: it reads 4242 4242 4242
   * 4242 but has a fingerprint of its own per customer, so tests that do not name cards never share one.
   */
  private createCard(customerId: string, number?: string): StripeObject {
    const digits = (number ?? DEFAULT_CARD).replace(/[\s-]/g, '');
    const identity = number === undefined ? `own card of ${customerId}` : digits;
    const pm: StripeObject = {
      id: newId('pm_', 24),
      object: 'payment_method',
      billing_details: { address: null, email: null, name: null, phone: null },
      card: {
        brand: CARD_BRANDS[digits[0]] ?? 'unknown',
        country: 'US',
        exp_month: 12,
        exp_year: new Date().getUTCFullYear() + 3,
        // Stripe's fingerprint tells one card number apart from another (the same on every customer).
        fingerprint: createHash('sha256').update(identity).digest('base64url').replace(/[-_]/g, '').slice(0, 16),
        funding: 'credit',
        last4: digits.slice(-4),
      },
      created: this.now(),
      customer: customerId,
      livemode: false,
      metadata: {},
      type: 'card',
    };
    this.paymentMethods.set(pm.id, pm);
    return pm;
  }

  private createDiscount(promotion: StripeObject, customer: string, subscription: string, session: string): StripeObject {
    const discount: StripeObject = {
      id: newId('di_', 24),
      object: 'discount',
      checkout_session: session,
      customer,
      customer_account: null,
      end: null,
      invoice: null,
      invoice_item: null,
      promotion_code: promotion.id,
      source: { coupon: promotion.promotion.coupon, type: 'coupon' },
      start: this.now(),
      subscription,
      subscription_item: null,
    };
    this.discounts.set(discount.id, discount);
    promotion.times_redeemed += 1;
    const coupon = this.coupons.get(promotion.promotion.coupon);
    if (coupon) coupon.times_redeemed += 1;
    return discount;
  }

  /** The price of the first invoice of a session (before discounts; 0 with a trial). */
  private firstAmount(extras: CheckoutSessionExtras): number {
    if ((extras.subscriptionData.trial_period_days ?? 0) > 0) return 0;
    return extras.lineItems.reduce((sum, li) => sum + (this.prices.get(li.price)?.unit_amount ?? 0) * li.quantity, 0);
  }

  private createInvoice(sub: StripeObject, billingReason: string, periodStart: number, periodEnd: number, trial: boolean): StripeObject {
    const customer = this.customers.get(sub.customer);
    const id = newId('in_', 24);
    const lines = (sub.items.data as StripeObject[]).map((item) => {
      const amount = trial ? 0 : item.price.unit_amount * item.quantity;
      return {
        id: newId('il_', 24),
        object: 'line_item',
        amount,
        currency: sub.currency,
        description: trial ? `Trial period for ${this.products.get(item.price.product)?.name ?? 'the plan'}` : `${item.quantity} × ${this.products.get(item.price.product)?.name ?? 'plan'}`,
        discount_amounts: [],
        discountable: true,
        discounts: [],
        invoice: id,
        livemode: false,
        metadata: {},
        parent: {
          invoice_item_details: null,
          subscription_item_details: { invoice_item: null, proration: false, proration_details: { credited_items: null }, subscription: sub.id, subscription_item: item.id },
          type: 'subscription_item_details',
        },
        period: { end: periodEnd, start: periodStart },
        pricing: { price_details: { price: item.price.id, product: item.price.product }, type: 'price_details', unit_amount_decimal: item.price.unit_amount_decimal },
        quantity: item.quantity,
        taxes: [],
      };
    });
    const subtotal = lines.reduce((sum, l) => sum + l.amount, 0);
    const discount = this.discountFor(sub, subtotal);
    const total = subtotal - discount;
    const now = this.now();
    const invoice: StripeObject = {
      id,
      object: 'invoice',
      account_country: 'US',
      account_name: 'Plink (test)',
      amount_due: total,
      amount_overpaid: 0,
      amount_paid: 0,
      amount_remaining: total,
      amount_shipping: 0,
      attempt_count: 0,
      attempted: false,
      auto_advance: true,
      billing_reason: billingReason,
      collection_method: 'charge_automatically',
      created: now,
      currency: sub.currency,
      customer: sub.customer,
      customer_email: customer?.email ?? null,
      customer_name: customer?.name ?? null,
      default_payment_method: null,
      description: null,
      discounts: discount > 0 ? [...sub.discounts] : [],
      due_date: null,
      effective_at: now,
      hosted_invoice_url: `${this.baseUrl()}/i/${id}`,
      lines: { object: 'list', data: lines, has_more: false, total_count: lines.length, url: `/v1/invoices/${id}/lines` },
      livemode: false,
      metadata: {},
      next_payment_attempt: null,
      number: `${customer?.invoice_prefix ?? 'TEST'}-${String(this.invoices.size + 1).padStart(4, '0')}`,
      parent: { quote_details: null, subscription_details: { metadata: { ...sub.metadata }, subscription: sub.id }, type: 'subscription_details' },
      period_end: periodEnd,
      period_start: periodStart,
      status: 'open',
      status_transitions: { finalized_at: now, marked_uncollectible_at: null, paid_at: null, voided_at: null },
      subtotal,
      subtotal_excluding_tax: subtotal,
      total,
      total_discount_amounts: discount > 0 ? [{ amount: discount, discount: sub.discounts[0] }] : [],
      total_excluding_tax: total,
      total_taxes: [],
    };
    this.invoices.set(id, invoice);
    return invoice;
  }

  private discountFor(sub: StripeObject, subtotal: number): number {
    if (subtotal === 0 || sub.discounts.length === 0) return 0;
    const discount = this.discounts.get(sub.discounts[0]);
    const coupon = discount ? this.coupons.get(discount.source.coupon) : undefined;
    if (!coupon) return 0;
    const extras = this.extras(sub.id);
    if (coupon.duration === 'once') {
      if (extras.onceDiscountUsed) return 0;
      extras.onceDiscountUsed = true;
    }
    return Math.round((subtotal * coupon.percent_off) / 100);
  }

  private markPaid(invoice: StripeObject): void {
    invoice.status = 'paid';
    invoice.amount_paid = invoice.amount_due;
    invoice.amount_remaining = 0;
    invoice.attempted = true;
    invoice.attempt_count = invoice.amount_due > 0 ? invoice.attempt_count + 1 : invoice.attempt_count;
    invoice.status_transitions.paid_at = this.now();
    invoice.next_payment_attempt = null;
  }

  private markFailed(invoice: StripeObject): void {
    invoice.attempted = true;
    invoice.attempt_count += 1;
    invoice.next_payment_attempt = null;
  }

  createPortalSession(customer: string, returnUrl: string | null): StripeObject {
    const id = newId('bps_', 24);
    const session: StripeObject = {
      id,
      object: 'billing_portal.session',
      configuration: 'bpc_test_default',
      created: this.now(),
      customer,
      customer_account: null,
      flow: null,
      livemode: false,
      locale: null,
      on_behalf_of: null,
      return_url: returnUrl,
      url: `${this.baseUrl()}/p/session/${id}`,
    };
    this.portalSessions.set(id, session);
    return session;
  }
}

/** `unix` plus one billing interval; a month keeps the day of the month (Jan 31 → Feb 28/29). */
export function addInterval(unix: number, recurring: { interval: string; interval_count: number } | null): number {
  const interval = recurring?.interval ?? 'month';
  const count = recurring?.interval_count ?? 1;
  if (interval === 'day') return unix + count * DAY;
  if (interval === 'week') return unix + count * 7 * DAY;
  const date = new Date(unix * 1000);
  const months = interval === 'year' ? 12 * count : count;
  const day = date.getUTCDate();
  const target = new Date(Date.UTC(date.getUTCFullYear(), date.getUTCMonth() + months, 1, date.getUTCHours(), date.getUTCMinutes(), date.getUTCSeconds()));
  const lastDay = new Date(Date.UTC(target.getUTCFullYear(), target.getUTCMonth() + 1, 0)).getUTCDate();
  target.setUTCDate(Math.min(day, lastDay));
  return Math.floor(target.getTime() / 1000);
}

/** The legacy `plan` view of a recurring price, still part of a subscription item. */
function planOf(price: StripeObject): StripeObject {
  return {
    id: price.id,
    object: 'plan',
    active: price.active,
    amount: price.unit_amount,
    amount_decimal: price.unit_amount_decimal,
    billing_scheme: 'per_unit',
    created: price.created,
    currency: price.currency,
    interval: price.recurring?.interval ?? 'month',
    interval_count: price.recurring?.interval_count ?? 1,
    livemode: false,
    metadata: price.metadata,
    meter: null,
    nickname: price.nickname,
    product: price.product,
    tiers_mode: null,
    transform_usage: null,
    trial_period_days: null,
    usage_type: 'licensed',
  };
}
