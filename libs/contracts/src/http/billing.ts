import { z } from 'zod';
import { plainText } from './text';

/** The texts of the subscription calls, shared by the server and the SPA, which shows them word for word. */
export const BillingMessages = {
  notConfigured: 'Payments are not configured on this server.',
  grantedByOperator: 'Your Pro plan was granted by the operator of this server and has no subscription to cancel.',
  noSubscription: 'You have no subscription to cancel.',
  /** create-subscription for a user who is Pro already (the SPA sends them to the dashboard on it). */
  alreadyPremium: 'You already have a premium subscription.',
  verifyFirst: 'Please verify your email before upgrading to Pro.',
  sessionNotFound: 'Checkout session not found.',
  nothingToResume: 'You have no cancelled subscription to resume.',
  noBillingAccount: 'You have no billing account yet. Upgrade to Pro first.',
  /** The payment provider did not answer (or answered with an error): nothing was changed. */
  providerUnavailable: 'The payment provider could not be reached. Please try again in a moment.',
  /** The answer of a cancellation (the SPA's toast says the same). */
  cancelled: 'Subscription cancelled',
  /** The answer of a resumed subscription. */
  resumed: 'Subscription resumed',
  /** The Stripe webhook: no or a wrong `Stripe-Signature`, or no signing secret configured (nothing is stored). */
  webhookSignatureInvalid: 'Webhook signature verification failed.',
} as const;

/** POST /api/verify-checkout */
export const verifyCheckoutSchema = z.object({
  sessionId: plainText('Session id', { trim: true, error: 'Session id is required' })
    .min(1, 'Session id is required')
    .max(255, 'Session id is too long'),
});
export type VerifyCheckoutRequest = z.infer<typeof verifyCheckoutSchema>;

/** POST /api/check-subscription-status and /api/admin/reset-subscription-status */
export interface SubscriptionStatusResponse {
  /** A running subscription (active or trialing) or an operator grant that has not ended. */
  hasActiveSubscription: boolean;
  /** Whether this call changed the stored plan. */
  updated: boolean;
  isPremium: boolean;
}

/** POST /api/cancel-subscription */
export interface CancelSubscriptionResponse {
  message: string;
  /** When Pro ends (the end of the paid period or of the trial). */
  endsAt: string | null;
}

/** POST /api/resume-subscription: undoes a cancellation while the subscription still runs. */
export interface ResumeSubscriptionResponse {
  message: string;
  /** When the subscription renews next (or the trial ends). */
  renewsAt: string | null;
}

/** POST /api/billing-portal: a Stripe Billing Portal session (card, invoices), returning to /settings. */
export interface BillingPortalResponse {
  url: string;
}

/** GET /api/subscription: the caller's plan as Settings → Subscription shows it. */
export interface SubscriptionDto {
  isPremium: boolean;
  /** The subscription's state ('none': never subscribed; an operator grant is 'active'). */
  status: 'none' | 'trialing' | 'active' | 'past_due' | 'canceled' | 'paused';
  /** Who gave the plan: a Stripe subscription or the server's operator; null before either. */
  source: 'stripe' | 'operator' | null;
  /** End of the free trial, while trialing. */
  trialEnd: string | null;
  /** End of the paid period (renewal date, or the end date when cancelled), or of an operator grant. */
  currentPeriodEnd: string | null;
  /** Cancelled, still running until currentPeriodEnd (or trialEnd): Resume is offered. */
  cancelAtPeriodEnd: boolean;
  /** The 14-day trial is still available to this user (once per person: not when an account with the same normalised e-mail or card had it). */
  trialAvailable: boolean;
  /** The server takes payments (STRIPE_SECRET_KEY set); otherwise upgrading answers 503. */
  paymentsConfigured: boolean;
  /** 'Manage billing' (Billing Portal) is possible: payments configured and a Stripe customer exists. */
  canManageBilling: boolean;
  /** When Pro last ended (null while Pro or never Pro): pages beyond the free one are paused since then. */
  downgradedAt: string | null;
  /** When the leads of paused pages will be removed (30 days after the downgrade); null when nothing is due. */
  leadRemovalAt: string | null;
}
