import type { ServiceSchema } from '@plink/data';
import { CreateWebhookLog20261124 } from './migrations/20261124-create-webhook-log';
import { CreateWebhookEndpoints20261125 } from './migrations/20261125-create-webhook-endpoints';
import { LighterWebhookLog20261126 } from './migrations/20261126-lighter-webhook-log';
import { EndpointsWithoutPlan20261128 } from './migrations/20261128-endpoints-without-plan';
import { Hooks20261210 } from './migrations/20261210-hooks';
import { ErasedLeads20261211 } from './migrations/20261211-erased-leads';
import { HookSecretRotation20261212 } from './migrations/20261212-hook-secret-rotation';

/**
 * The notifications service's tables (schema "notifications"): the webhook delivery log, its copy of the endpoints,
 * the hook subscriptions and their deliveries, and the leads deleted since (their deliveries are dropped).
 */
export const NOTIFICATIONS_SCHEMA: ServiceSchema = {
  service: 'notifications',
  entities: [],
  migrations: [
    { name: '20261124_create_webhook_log', class: CreateWebhookLog20261124 },
    { name: '20261125_create_webhook_endpoints', class: CreateWebhookEndpoints20261125 },
    { name: '20261126_lighter_webhook_log', class: LighterWebhookLog20261126 },
    { name: '20261128_endpoints_without_plan', class: EndpointsWithoutPlan20261128 },
    { name: '20261210_hooks', class: Hooks20261210 },
    { name: '20261211_erased_leads', class: ErasedLeads20261211 },
    { name: '20261212_hook_secret_rotation', class: HookSecretRotation20261212 },
  ],
};
