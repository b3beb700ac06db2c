export * from './test-database';
export * from './test-redis';
export * from './smtp-catcher';
export * from './test-environment';
export * from './stripe/fake-stripe';
export * from './test-client';
export * from './upload-stores';
export * from './test-sign-ins';
