export * from './redis.module';
export * from './ttl-cache';
export * from './change-channel';
export * from './channel-cache';
export * from './rate-limiter';
