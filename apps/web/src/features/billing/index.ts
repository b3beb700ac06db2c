// The billing screens (Checkout, Checkout success, Settings → Subscription) and the dashboard's
// premium re-check. The router loads the two checkout screens lazily from their own modules.
export { SubscriptionPanel } from './components/SubscriptionPanel';
export { usePremiumRecheck } from './hooks/usePremiumRecheck';
export { subscriptionQuery } from './hooks/useSubscription';
