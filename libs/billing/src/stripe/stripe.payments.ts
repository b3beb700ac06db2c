import { createHash, randomUUID } from 'node:crypto';
import { BadRequestException, ForbiddenException, NotFoundException } from '@nestjs/common';
import { EntityManager } from '@mikro-orm/postgresql';
import type Stripe from 'stripe';
import { BillingMessages, type SubscriptionStatusResponse } from '@plink/contracts';
import { getLogger } from '@plink/platform';
import type { BillingAccount } from '../accounts/billing-account.entity';
import { PaymentsGateway, type CheckoutVerification, type Payer } from '../payments/payments.gateway';
import type { ReadPlanService } from '../use-cases/read-plan.service';
import type { StripeSubscriptionSync } from '../use-cases/stripe-subscription-sync.service';
import { isStripeNotFound, providerUnavailable, type StripeConnection } from './stripe-client';
import { endOfCurrentTerm, idOf } from './subscription-state';

/** Days of the free trial, offered once per user. */
export const TRIAL_DAYS = 14;

/** What a Checkout Session id looks like (anything else cannot be one of the caller's sessions). */
const SESSION_ID = /^cs_[A-Za-z0-9_]{1,250}$/;

/**
 * Payments on Stripe: Checkout for the Pro plan (with the 14-day trial without a card, once per user), its
 * verification on return, the status re-sync, cancel at period end, resume, and the Billing Portal. Every
 * call is about the caller's own customer and subscription. A Stripe failure answers 503 "The payment
 * provider could not be reached…" and changes nothing here.
 */
export class StripePayments extends PaymentsGateway {
  readonly configured = true;

  constructor(
    private readonly stripe: StripeConnection,
    private readonly em: EntityManager,
    private readonly plans: ReadPlanService,
    private readonly sync: StripeSubscriptionSync,
    private readonly appOrigin: string,
  ) {
    super();
  }

  async createCheckout(payer: Payer, account: BillingAccount | null): Promise<{ url: string }> {
    if (!payer.isVerified) throw new ForbiddenException({ message: BillingMessages.verifyFirst });
    if (payer.isPremium || account?.isPremium) throw new BadRequestException({ message: BillingMessages.alreadyPremium });
    const withTrial = !account?.trialUsed;
    try {
      const customer = await this.customerOf(payer);
      const userId = String(payer.id);
      const session = await this.stripe.api.checkout.sessions.create(
        {
          mode: 'subscription',
          customer,
          client_reference_id: userId,
          line_items: [{ price: this.stripe.priceId!, quantity: 1 }],
          allow_promotion_codes: true,
          // No card for the trial; without one when it ends, the subscription is cancelled (Pro ends).
          payment_method_collection: 'if_required',
          subscription_data: withTrial
            ? { metadata: { userId }, trial_period_days: TRIAL_DAYS, trial_settings: { end_behavior: { missing_payment_method: 'cancel' } } }
            : { metadata: { userId } },
          metadata: { userId },
          success_url: `${this.appOrigin}/checkout/success?session_id={CHECKOUT_SESSION_ID}`,
          cancel_url: `${this.appOrigin}/dashboard`,
        },
        // One key per attempt: the SDK's retries of this attempt never open a second session.
        { idempotencyKey: `plink-checkout-${userId}-${randomUUID()}` },
      );
      if (!session.url) throw new Error('Stripe answered a Checkout Session without a url');
      getLogger().info({ userId: payer.id, trial: withTrial }, 'checkout session created');
      return { url: session.url };
    } catch (err) {
      throw providerUnavailable(err, 'create a checkout session', { userId: payer.id });
    }
  }

  async verifyCheckout(payer: Payer, sessionId: string): Promise<CheckoutVerification> {
    if (!SESSION_ID.test(sessionId)) throw new NotFoundException({ message: BillingMessages.sessionNotFound });
    let session: Stripe.Checkout.Session;
    try {
      session = await this.stripe.api.checkout.sessions.retrieve(sessionId, { expand: ['subscription'] });
    } catch (err) {
      if (isStripeNotFound(err)) throw new NotFoundException({ message: BillingMessages.sessionNotFound });
      throw providerUnavailable(err, 'retrieve a checkout session', { userId: payer.id });
    }
    const account = await this.plans.find(payer.id);
    const customerId = idOf(session.customer);
    const mine = session.client_reference_id === String(payer.id) || (customerId !== null && account?.stripeCustomerId === customerId);
    // Another user's session is answered like one that does not exist.
    if (!mine) throw new NotFoundException({ message: BillingMessages.sessionNotFound });
    const subscription = typeof session.subscription === 'object' ? session.subscription : null;
    const running = subscription !== null && (subscription.status === 'active' || subscription.status === 'trialing');
    if (session.status !== 'complete' || !running || !customerId) {
      return { success: false, isPremium: account?.isPremium ?? payer.isPremium, hasActiveSubscription: false };
    }
    // The webhook may come later, or already came: both store the same state.
    const applied = await this.sync.applySubscription(payer.id, customerId, subscription);
    return { success: true, isPremium: applied.isPremium, hasActiveSubscription: applied.isPremium };
  }

  async syncSubscription(payer: Payer, account: BillingAccount): Promise<SubscriptionStatusResponse> {
    if (!account.stripeCustomerId) throw new Error('syncSubscription needs a Stripe customer');
    try {
      const result = await this.sync.syncCustomer(payer.id, account.stripeCustomerId);
      return { hasActiveSubscription: result.isPremium, updated: result.changed, isPremium: result.isPremium };
    } catch (err) {
      throw providerUnavailable(err, 're-read the subscription', { userId: payer.id });
    }
  }

  async cancelSubscription(payer: Payer, account: BillingAccount): Promise<{ endsAt: Date | null }> {
    const subscription = await this.updateSubscription(payer, account, { cancel_at_period_end: true }, BillingMessages.noSubscription);
    getLogger().info({ userId: payer.id }, 'subscription cancelled at period end');
    return { endsAt: endOfCurrentTerm(subscription) };
  }

  async resumeSubscription(payer: Payer, account: BillingAccount): Promise<{ renewsAt: Date | null }> {
    if (!account.isPremium || !account.cancelAtPeriodEnd || account.source !== 'stripe') {
      throw new BadRequestException({ message: BillingMessages.nothingToResume });
    }
    const subscription = await this.updateSubscription(payer, account, { cancel_at_period_end: false }, BillingMessages.nothingToResume);
    getLogger().info({ userId: payer.id }, 'subscription resumed');
    return { renewsAt: endOfCurrentTerm(subscription) };
  }

  async billingPortal(payer: Payer, account: BillingAccount | null): Promise<{ url: string }> {
    if (!account?.stripeCustomerId) throw new BadRequestException({ message: BillingMessages.noBillingAccount });
    try {
      const session = await this.stripe.api.billingPortal.sessions.create({
        customer: account.stripeCustomerId,
        return_url: `${this.appOrigin}/settings?tab=subscription`,
      });
      return { url: session.url };
    } catch (err) {
      throw providerUnavailable(err, 'open the billing portal', { userId: payer.id });
    }
  }

  /**
   * Changes the payer's running subscription and stores its new state. A subscription Stripe no longer
   * has, or can no longer change (it ended meanwhile), re-syncs the plan and answers 400 `gone`.
   */
  private async updateSubscription(payer: Payer, account: BillingAccount, params: Stripe.SubscriptionUpdateParams, gone: string): Promise<Stripe.Subscription> {
    const subscriptionId = account.stripeSubscriptionId;
    const customerId = account.stripeCustomerId;
    if (!subscriptionId || !customerId) throw new BadRequestException({ message: gone });
    let subscription: Stripe.Subscription;
    try {
      subscription = await this.stripe.api.subscriptions.update(subscriptionId, params);
    } catch (err) {
      const refused = isStripeNotFound(err) || (err as { statusCode?: number }).statusCode === 400;
      if (refused) {
        await this.sync.syncCustomer(payer.id, customerId).catch(() => undefined);
        throw new BadRequestException({ message: gone });
      }
      throw providerUnavailable(err, 'update the subscription', { userId: payer.id });
    }
    await this.sync.applySubscription(payer.id, customerId, subscription);
    return subscription;
  }

  /**
   * The payer's Stripe customer, created on their first checkout and stored at once. The account row is
   * locked meanwhile, so two first checkouts at once create one customer (the second finds it stored);
   * the idempotency key covers a creation whose answer was lost (Stripe answers the same customer again).
   */
  private async customerOf(payer: Payer): Promise<string> {
    return this.em.fork().transactional(async (tx) => {
      await tx.execute('insert into billing.accounts (user_id) values (?) on conflict (user_id) do nothing', [payer.id]);
      const [row] = await tx.execute<{ stripe_customer_id: string | null }[]>(
        'select stripe_customer_id from billing.accounts where user_id = ? for update',
        [payer.id],
      );
      if (row?.stripe_customer_id) return row.stripe_customer_id;
      const emailTag = createHash('sha256').update(payer.email.toLowerCase()).digest('hex').slice(0, 16);
      const customer = await this.stripe.api.customers.create(
        { email: payer.email, metadata: { userId: String(payer.id) } },
        { idempotencyKey: `plink-customer-${payer.id}-${emailTag}` },
      );
      await tx.execute('update billing.accounts set stripe_customer_id = ?, updated_at = now() where user_id = ?', [customer.id, payer.id]);
      getLogger().info({ userId: payer.id }, 'stripe customer created');
      return customer.id;
    });
  }
}
