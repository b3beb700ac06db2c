import { Module } from '@nestjs/common';
import { PAGES_SCHEMA, PagesUploadUsageModule, PagesWorkerModule } from '@plink/pages';
import { runWorkerApp } from '@plink/platform';
import { UploadsWorkerModule } from '@plink/uploads';

/**
 * The pages service's worker, and beside it the uploads queue, told by the pages service which uploads
 * its pages still show (the uploads service keeps no tables of its own).
 */
@Module({ imports: [PagesWorkerModule, UploadsWorkerModule.forUsage(PagesUploadUsageModule)] })
class PagesAndUploadsWorkers {}

void runWorkerApp({
  service: 'pages',
  workerModule: PagesAndUploadsWorkers,
  // Its own schema only (plus the platform's outbox): what it needs of page owners it keeps in it (fed by
  // identity's jobs), and the uploads queue keeps no tables.
  schema: PAGES_SCHEMA,
  defaultHealthPort: 3102,
});
