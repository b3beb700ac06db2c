export * from './http/errors';
export * from './http/identity';
export * from './jobs/queues';
export * from './jobs/jobs';
