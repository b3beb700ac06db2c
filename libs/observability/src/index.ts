export * from './logging/logger';
export * from './logging/nest-logger';
export * from './logging/throttled-log';
export * from './metrics/metrics';
export * from './metrics/metrics-port';
export * from './metrics/cpu-pressure';
