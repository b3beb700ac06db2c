export { UploadsHttpModule, UploadsWorkerModule } from './uploads.module';
export { SweepUploadsService, type SweepResult } from './use-cases/sweep-uploads.service';
export { SWEEP_UPLOADS_PATTERN, SWEEP_UPLOADS_SCHEDULER_ID, SweepUploadsScheduler } from './processors/sweep-uploads.scheduler';
