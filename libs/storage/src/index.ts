export { LocalStorage } from './local.storage';
export { S3Storage, type S3StorageOptions } from './s3.storage';
export { createStorage, StorageModule } from './storage.module';
export {
  assertSafeKey,
  assertSafePrefix,
  isSafeKey,
  MAX_KEY_LENGTH,
  Storage,
  UnsafeStorageKeyError,
  type ListedObject,
  type StoredObject,
} from './storage.port';
