export * from './service-schema';
export * from './database-unavailable';
export * from './database.module';
export * from './migrate';
export * from './request-orm-context';
export * from './outbox.entity';
