export * from './http/errors';
export * from './http/identity';
export * from './http/pages';
export * from './http/leads';
export * from './http/rich-text';
export * from './http/uploads';
export * from './jobs/queues';
export * from './jobs/jobs';
