import { IDENTITY_SCHEMA } from '@plink/identity';
import { PAGES_SCHEMA, PagesWorkerModule } from '@plink/pages';
import { runWorkerApp } from '@plink/platform';

void runWorkerApp({
  service: 'pages',
  workerModule: PagesWorkerModule,
  // Its own schema, plus identity's, which it reads through the identity read API.
  schemas: [IDENTITY_SCHEMA, PAGES_SCHEMA],
  defaultHealthPort: 3102,
});
