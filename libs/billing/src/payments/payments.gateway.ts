import { ServiceUnavailableException } from '@nestjs/common';
import { BillingMessages, type SubscriptionStatusResponse } from '@plink/contracts';
import type { BillingAccount } from '../accounts/billing-account.entity';

/** The signed-in user, as a payment provider needs them. */
export interface Payer {
  id: number;
  email: string;
  isVerified: boolean;
  isPremium: boolean;
}

export interface CheckoutVerification {
  success: boolean;
  isPremium: boolean;
  hasActiveSubscription: boolean;
}

/**
 * The port to a payment provider. The billing calls go through it: Stripe (StripePayments) when
 * STRIPE_SECRET_KEY is set, otherwise PaymentsNotConfigured. Every call is about the payer's own plan.
 */
export abstract class PaymentsGateway {
  /** False when the server takes no payments: the subscription calls say so. */
  abstract readonly configured: boolean;
  /** A hosted checkout page for the Pro plan. */
  abstract createCheckout(payer: Payer, account: BillingAccount | null): Promise<{ url: string }>;
  /** Confirms a finished checkout of this payer (and applies the plan it started). */
  abstract verifyCheckout(payer: Payer, sessionId: string): Promise<CheckoutVerification>;
  /** Re-reads the payer's subscription from the provider and corrects the stored plan. */
  abstract syncSubscription(payer: Payer, account: BillingAccount): Promise<SubscriptionStatusResponse>;
  /** Cancels the payer's subscription at the end of its period (or trial); returns when it ends. */
  abstract cancelSubscription(payer: Payer, account: BillingAccount): Promise<{ endsAt: Date | null }>;
  /** Undoes a cancellation while the subscription still runs; returns when it renews (or the trial ends). */
  abstract resumeSubscription(payer: Payer, account: BillingAccount): Promise<{ renewsAt: Date | null }>;
  /** A Billing Portal session (card, invoices) that returns to Settings → Subscription. */
  abstract billingPortal(payer: Payer, account: BillingAccount | null): Promise<{ url: string }>;
}

/** No payment provider (no STRIPE_SECRET_KEY): every payment call answers 503 "Payments are not configured on this server." */
export class PaymentsNotConfigured extends PaymentsGateway {
  readonly configured = false;

  createCheckout(): Promise<{ url: string }> {
    return Promise.reject(notConfigured());
  }

  verifyCheckout(): Promise<CheckoutVerification> {
    return Promise.reject(notConfigured());
  }

  syncSubscription(): Promise<SubscriptionStatusResponse> {
    return Promise.reject(notConfigured());
  }

  cancelSubscription(): Promise<{ endsAt: Date | null }> {
    return Promise.reject(notConfigured());
  }

  resumeSubscription(): Promise<{ renewsAt: Date | null }> {
    return Promise.reject(notConfigured());
  }

  billingPortal(): Promise<{ url: string }> {
    return Promise.reject(notConfigured());
  }
}

function notConfigured(): ServiceUnavailableException {
  return new ServiceUnavailableException({ message: BillingMessages.notConfigured });
}
