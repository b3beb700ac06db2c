export * from './outbox.service';
export * from './job-queue';
export * from './contract-worker';
export * from './recurring-jobs';
export * from './queue.module';
