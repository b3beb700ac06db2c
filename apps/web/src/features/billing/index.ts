// The billing screens (SPEC §2 Checkout, Checkout success, Settings → Subscription) and the dashboard's
// premium re-check (SPEC §4). The router loads the two checkout screens lazily from here.
export { CheckoutPage } from './components/CheckoutPage';
export { CheckoutSuccessPage } from './components/CheckoutSuccessPage';
export { SubscriptionPanel } from './components/SubscriptionPanel';
export { usePremiumRecheck } from './hooks/usePremiumRecheck';
export { subscriptionQuery, useRefreshPlan, useSubscription } from './hooks/useSubscription';
