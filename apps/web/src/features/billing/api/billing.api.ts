import type {
  BillingPortalResponse,
  CancelSubscriptionResponse,
  ResumeSubscriptionResponse,
  SubscriptionDto,
  SubscriptionStatusResponse,
} from '@plink/contracts';
import { apiClient } from '../../../lib/api-client';

/** GET /api/subscription: the caller's plan as Settings → Subscription shows it. */
export const fetchSubscription = () => apiClient.get<SubscriptionDto>('/api/subscription');

/** POST /api/verify-checkout: the Checkout Session the browser came back from. */
export const verifyCheckout = (sessionId: string) =>
  apiClient.post<{ success: boolean; isPremium: boolean; hasActiveSubscription: boolean }>('/api/verify-checkout', {
    sessionId,
  });

/** POST /api/check-subscription-status: re-reads the caller's subscription and corrects the stored plan. */
export const checkSubscriptionStatus = () =>
  apiClient.post<SubscriptionStatusResponse>('/api/check-subscription-status');

/** POST /api/admin/reset-subscription-status: re-syncs the caller's own plan (any signed-in user may call it). */
export const resetSubscriptionStatus = () =>
  apiClient.post<SubscriptionStatusResponse>('/api/admin/reset-subscription-status');

/** POST /api/cancel-subscription: cancels at the end of the period (or trial). */
export const cancelSubscription = () => apiClient.post<CancelSubscriptionResponse>('/api/cancel-subscription');

/** POST /api/resume-subscription: undoes a cancellation while the subscription still runs. */
export const resumeSubscription = () => apiClient.post<ResumeSubscriptionResponse>('/api/resume-subscription');

/** POST /api/billing-portal: a Billing Portal session (card, invoices) to send the browser to. */
export const openBillingPortal = () => apiClient.post<BillingPortalResponse>('/api/billing-portal');
