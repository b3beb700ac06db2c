import { NOTIFICATIONS_SCHEMA, NotificationsWorkerModule } from '@plink/notifications';
import { runWorkerApp } from '@plink/platform';

void runWorkerApp({
  service: 'notifications',
  workerModule: NotificationsWorkerModule,
  // Its own tables only (the webhook log, its copy of the webhook endpoints): what it sends comes in the jobs.
  schema: NOTIFICATIONS_SCHEMA,
  defaultHealthPort: 3105,
});
