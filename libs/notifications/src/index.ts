export { NOTIFICATIONS_SCHEMA } from './notifications.schema';
export { NotificationsWorkerModule, WebhooksHttpModule } from './notifications.module';
