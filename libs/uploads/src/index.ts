export { UploadsHttpModule, UploadsWorkerModule } from './uploads.module';
export { SweepUploadsService, type SweepResult } from './use-cases/sweep-uploads.service';
