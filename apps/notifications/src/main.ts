import { IDENTITY_SCHEMA } from '@plink/identity';
import { LEADS_SCHEMA } from '@plink/leads';
import { NOTIFICATIONS_SCHEMA, NotificationsWorkerModule } from '@plink/notifications';
import { PAGES_SCHEMA } from '@plink/pages';
import { runWorkerApp } from '@plink/platform';

void runWorkerApp({
  service: 'notifications',
  workerModule: NotificationsWorkerModule,
  // Its own tables (the webhook log); it reads users, pages and leads through their services' read APIs.
  schemas: [IDENTITY_SCHEMA, PAGES_SCHEMA, LEADS_SCHEMA, NOTIFICATIONS_SCHEMA],
  defaultHealthPort: 3105,
});
