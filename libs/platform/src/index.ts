export * from './platform.module';
export * from './bootstrap/node-version';
export * from './bootstrap/worker-app';
export * from './bootstrap/http-app';
export * from './bootstrap/graceful-stop';
export * from './health/health.service';
export * from './health/health-indicators';
