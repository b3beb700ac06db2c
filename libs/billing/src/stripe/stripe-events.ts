/**
 * The Stripe events the billing worker acts on. Configure the webhook endpoint in Stripe with these (the
 * docs/billing.md lists them); any other event is stored as ignored and answered 200.
 */
export const HANDLED_STRIPE_EVENTS: ReadonlySet<string> = new Set([
  'checkout.session.completed',
  'customer.subscription.created',
  'customer.subscription.updated',
  'customer.subscription.deleted',
  'customer.subscription.paused',
  'customer.subscription.resumed',
  'customer.subscription.trial_will_end',
  'invoice.paid',
  'invoice.payment_failed',
]);
