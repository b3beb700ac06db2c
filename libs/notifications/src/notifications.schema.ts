import type { ServiceSchema } from '@plink/platform';
import { CreateWebhookLog20261124 } from './migrations/20261124-create-webhook-log';

/** The notifications service's tables (schema "notifications"): the webhook delivery log. */
export const NOTIFICATIONS_SCHEMA: ServiceSchema = {
  service: 'notifications',
  entities: [],
  migrations: [{ name: '20261124_create_webhook_log', class: CreateWebhookLog20261124 }],
};
