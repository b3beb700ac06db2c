import { IDENTITY_SCHEMA } from '@plink/identity';
import { NotificationsWorkerModule } from '@plink/notifications';
import { runWorkerApp } from '@plink/platform';

void runWorkerApp({
  service: 'notifications',
  workerModule: NotificationsWorkerModule,
  schemas: [IDENTITY_SCHEMA],
  defaultHealthPort: 3105,
});
