import { PAGES_SCHEMA, PagesWorkerModule } from '@plink/pages';
import { runWorkerApp } from '@plink/platform';

void runWorkerApp({
  service: 'pages',
  workerModule: PagesWorkerModule,
  schemas: [PAGES_SCHEMA],
  defaultHealthPort: 3102,
});
