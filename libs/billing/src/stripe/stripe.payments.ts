import { createHash, randomUUID } from 'node:crypto';
import { BadRequestException, ForbiddenException, NotFoundException } from '@nestjs/common';
import { EntityManager } from '@mikro-orm/postgresql';
import type Stripe from 'stripe';
import { BillingMessages, type SubscriptionStatusResponse } from '@plink/contracts';
import { getLogger } from '@plink/observability';
import type { BillingAccount } from '../accounts/billing-account.entity';
import type { BillingAccountsRepository, CheckoutState } from '../accounts/billing-accounts.repository';
import { PaymentsGateway, type CheckoutVerification, type Payer } from '../payments/payments.gateway';
import type { ReadPlanService } from '../use-cases/read-plan.service';
import type { StripeSubscriptionSync } from '../use-cases/stripe-subscription-sync.service';
import { personKeyOf } from '../trials/person-key';
import type { TrialLedger } from '../trials/trial-ledger.service';
import { isStripeNotFound, providerUnavailable, type StripeConnection } from './stripe-client';
import { endOfCurrentTerm, idOf, isRunning, pickCurrentSubscription } from './subscription-state';

/** Days of the free trial, offered once per person. */
export const TRIAL_DAYS = 14;

/** An open Checkout Session is answered again only while it has at least this long left (the payer fills it in). */
const SESSION_MIN_LIFETIME_MS = 30 * 60 * 1000;

/** What a Checkout Session id looks like (anything else cannot be one of the caller's sessions). */
const SESSION_ID = /^cs_[A-Za-z0-9_]{1,250}$/;

/**
 * Payments on Stripe: Checkout for the Pro plan (with the 14-day trial without a card, once per person), its
 * verification on return, the status re-sync, cancel at period end, resume, and the Billing Portal. Every
 * call is about the caller's own customer and subscription. A Stripe failure answers 503 "The payment
 * provider could not be reached…" and changes nothing here.
 */
export class StripePayments extends PaymentsGateway {
  readonly configured = true;

  constructor(
    private readonly stripe: StripeConnection,
    private readonly em: EntityManager,
    private readonly accounts: BillingAccountsRepository,
    private readonly plans: ReadPlanService,
    private readonly sync: StripeSubscriptionSync,
    private readonly trials: TrialLedger,
    private readonly appOrigin: string,
  ) {
    super();
  }

  async createCheckout(payer: Payer, account: BillingAccount | null): Promise<{ url: string }> {
    if (!payer.isVerified) throw new ForbiddenException({ message: BillingMessages.verifyFirst });
    if (payer.isPremium || account?.isPremium) throw new BadRequestException({ message: BillingMessages.alreadyPremium });
    const withTrial = await this.trials.availableTo(payer.email, account);
    try {
      return await this.em.fork().transactional(async (tx) => {
        const checkout = await this.accounts.lockForCheckout(tx, payer.id);
        const open = await this.openSession(checkout, withTrial);
        if (open) {
          getLogger().info({ userId: payer.id, trial: withTrial }, 'open checkout session answered again');
          return { url: open };
        }
        const customer = checkout.customerId ?? (await this.createCustomer(tx, payer));
        const session = await this.createSession(payer, customer, withTrial);
        await this.accounts.saveCheckout(tx, payer.id, {
          personKey: personKeyOf(payer.email),
          sessionId: session.id,
          expiresAt: new Date(session.expires_at * 1000),
          withTrial,
        });
        getLogger().info({ userId: payer.id, trial: withTrial }, 'checkout session created');
        return { url: session.url! };
      });
    } catch (err) {
      throw providerUnavailable(err, 'create a checkout session', { userId: payer.id });
    }
  }

  async verifyCheckout(payer: Payer, sessionId: string): Promise<CheckoutVerification> {
    if (!SESSION_ID.test(sessionId)) throw new NotFoundException({ message: BillingMessages.sessionNotFound });
    // Read before the session: the state Stripe answers is newer than this plan (see applySubscription).
    const account = await this.plans.find(payer.id);
    let session: Stripe.Checkout.Session;
    try {
      session = await this.stripe.api.checkout.sessions.retrieve(sessionId, { expand: ['subscription.default_payment_method'] });
    } catch (err) {
      if (isStripeNotFound(err)) throw new NotFoundException({ message: BillingMessages.sessionNotFound });
      throw providerUnavailable(err, 'retrieve a checkout session', { userId: payer.id });
    }
    const customerId = idOf(session.customer);
    const mine = session.client_reference_id === String(payer.id) || (customerId !== null && account?.stripeCustomerId === customerId);
    // Another user's session is answered like one that does not exist.
    if (!mine) throw new NotFoundException({ message: BillingMessages.sessionNotFound });
    const subscription = typeof session.subscription === 'object' ? session.subscription : null;
    if (session.status !== 'complete' || !isPro(subscription) || !customerId) {
      // The plan as stored now (the billing worker may have stored this checkout's end meanwhile).
      return { success: false, isPremium: (await this.plans.find(payer.id))?.isPremium ?? payer.isPremium, hasActiveSubscription: false };
    }
    // The webhook may come later, or already came: both store the same state.
    // Checking the trial may call Stripe (a second trial of a person is ended): its failure is a 503 too.
    const applied = await this.sync.applySubscription(payer.id, customerId, subscription, { basedOn: account?.planVersion ?? 0 }).catch((err: unknown) => {
      throw providerUnavailable(err, 'apply the checkout subscription', { userId: payer.id });
    });
    // A trial this person already had is ended by the check: without a card the subscription ends with it,
    // and the checkout did not make them Pro (never "success" while the plan says otherwise).
    const success = isPro(applied.subscription) && applied.isPremium;
    return { success, isPremium: applied.isPremium, hasActiveSubscription: success };
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

  /**
   * Cancels at period end every running subscription of the payer's customer, not only the one stored: a
   * customer should have one, and one they forgot would go on charging. More than one is logged as an error.
   */
  async cancelSubscription(payer: Payer, account: BillingAccount): Promise<{ endsAt: Date | null }> {
    const customerId = account.stripeCustomerId;
    if (!customerId) throw new BadRequestException({ message: BillingMessages.noSubscription });
    try {
      const list = await this.stripe.api.subscriptions.list({ customer: customerId, status: 'all', limit: 20 });
      const running = list.data.filter(isRunning);
      if (running.length > 1) {
        getLogger().error({ userId: payer.id, customerId, subscriptions: running.map((s) => s.id) }, 'customer has more than one running subscription: cancelling every one');
      }
      const after = new Map(list.data.map((s) => [s.id, s]));
      for (const subscription of running) {
        if (subscription.cancel_at_period_end) continue;
        try {
          after.set(subscription.id, await this.stripe.api.subscriptions.update(subscription.id, { cancel_at_period_end: true }));
        } catch (err) {
          // Ended meanwhile: nothing left to cancel on it.
          if (isStripeNotFound(err) || (err as { statusCode?: number }).statusCode === 400) after.delete(subscription.id);
          else throw err;
        }
      }
      const ending = [...after.values()].filter((s) => isRunning(s) && running.some((r) => r.id === s.id));
      await this.sync.applySubscription(payer.id, customerId, pickCurrentSubscription([...after.values()]), { basedOn: account.planVersion });
      if (ending.length === 0) throw new BadRequestException({ message: BillingMessages.noSubscription });
      getLogger().info({ userId: payer.id, subscriptions: ending.length }, 'subscription cancelled at period end');
      const ends = ending.map((s) => endOfCurrentTerm(s)?.getTime() ?? 0);
      return { endsAt: Math.max(...ends) > 0 ? new Date(Math.max(...ends)) : null };
    } catch (err) {
      throw providerUnavailable(err, 'cancel the subscription', { userId: payer.id });
    }
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
    await this.sync.applySubscription(payer.id, customerId, subscription, { basedOn: account.planVersion }).catch((err: unknown) => {
      throw providerUnavailable(err, 'apply the subscription', { userId: payer.id });
    });
    return subscription;
  }

  /**
   * The URL of the account's Checkout Session while it is still open and offers what a new one would (the
   * trial or not): a second checkout (another tab, a double click) continues it rather than opening a second
   * session that could start a second subscription. A session that offers a trial no longer due is expired.
   */
  private async openSession(checkout: CheckoutState, withTrial: boolean): Promise<string | null> {
    if (!checkout.sessionId || !checkout.expiresAt) return null;
    // Not one about to expire while the payer fills it in.
    if (new Date(checkout.expiresAt).getTime() - Date.now() < SESSION_MIN_LIFETIME_MS) return null;
    let session: Stripe.Checkout.Session;
    try {
      session = await this.stripe.api.checkout.sessions.retrieve(checkout.sessionId);
    } catch (err) {
      if (isStripeNotFound(err)) return null;
      throw err;
    }
    if (session.status !== 'open' || !session.url) return null;
    if (checkout.withTrial === withTrial) return session.url;
    await this.stripe.api.checkout.sessions.expire(session.id).catch((err: unknown) => {
      getLogger().warn({ sessionId: session.id, err: (err as Error).message }, 'checkout session could not be expired');
    });
    return null;
  }

  private async createSession(payer: Payer, customer: string, withTrial: boolean): Promise<Stripe.Checkout.Session> {
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
    return session;
  }

  /**
   * The payer's Stripe customer, created on their first checkout and stored in the checkout's transaction;
   * the idempotency key covers a creation whose answer was lost (Stripe answers the same customer again).
   */
  private async createCustomer(tx: EntityManager, payer: Payer): Promise<string> {
    const emailTag = createHash('sha256').update(payer.email.toLowerCase()).digest('hex').slice(0, 16);
    const customer = await this.stripe.api.customers.create(
      { email: payer.email, metadata: { userId: String(payer.id) } },
      { idempotencyKey: `plink-customer-${payer.id}-${emailTag}` },
    );
    await this.accounts.saveCustomer(tx, payer.id, customer.id);
    getLogger().info({ userId: payer.id }, 'stripe customer created');
    return customer.id;
  }
}

/** A subscription that makes its customer Pro (trialing or active). */
function isPro(subscription: Stripe.Subscription | null): subscription is Stripe.Subscription {
  return subscription !== null && (subscription.status === 'active' || subscription.status === 'trialing');
}
