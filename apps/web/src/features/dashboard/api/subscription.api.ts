import type { SubscriptionDto } from '@plink/contracts';
import { apiClient } from '../../../lib/api-client';

/** The caller's plan (GET /api/subscription); the dashboard reads when paused pages' leads will be removed. */
export const fetchSubscription = () => apiClient.get<SubscriptionDto>('/api/subscription');
