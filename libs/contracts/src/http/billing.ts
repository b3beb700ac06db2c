import { z } from 'zod';
import { plainText } from './text';

/** The texts of the subscription calls (SPEC §7, §8), shared by the server and the SPA. */
export const BillingMessages = {
  notConfigured: 'Payments are not configured on this server.',
  grantedByOperator: 'Your Pro plan was granted by the operator of this server and has no subscription to cancel.',
  noSubscription: 'You have no subscription to cancel.',
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
