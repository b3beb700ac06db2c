export { LocalStorage } from './local.storage';
export { S3Storage, type S3StorageOptions } from './s3.storage';
export { createStorage, StorageModule } from './storage.module';
export {
  assertSafeKey,
  MAX_KEY_LENGTH,
  Storage,
  UnsafeStorageKeyError,
  type StoredObject,
} from './storage.port';
