export { NotificationsWorkerModule } from './notifications.module';
