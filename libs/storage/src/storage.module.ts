import { Global, Module } from '@nestjs/common';
import { APP_CONFIG, type AppConfig } from '@plink/config';
import { LocalStorage } from './local.storage';
import { S3Storage } from './s3.storage';
import { Storage } from './storage.port';

/** S3/MinIO when S3_ENDPOINT is configured, the UPLOADS_DIR folder otherwise. */
export function createStorage(config: AppConfig): Storage {
  return config.s3 ? new S3Storage(config.s3) : new LocalStorage(config.uploadsDir);
}

@Global()
@Module({
  providers: [{ provide: Storage, inject: [APP_CONFIG], useFactory: createStorage }],
  exports: [Storage],
})
export class StorageModule {}
