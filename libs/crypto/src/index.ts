export * from './secrets';
export * from './form-token';
