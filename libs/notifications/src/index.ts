export { NOTIFICATIONS_SCHEMA } from './notifications.schema';
export { NotificationsWorkerModule, WebhooksHttpModule } from './notifications.module';
export { WebhookEndpointLookup, type OwnedWebhookEndpoint } from './http/webhook-endpoint-lookup';
