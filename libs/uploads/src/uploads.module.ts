import { type DynamicModule, Module, type ModuleMetadata } from '@nestjs/common';
import { UploadUrls } from '@plink/contracts';
import { APP_CONFIG, type AppConfig } from '@plink/config';
import { Storage } from '@plink/storage';
import { AnnouncedSizeGuard, UploadImageController } from './http/upload-image.controller';
import { ProcessImageService } from './images/process-image.service';
import { UploadsProcessor } from './processors/uploads.processor';
import { DeleteUploadsService } from './use-cases/delete-uploads.service';
import { SweepUploadsService } from './use-cases/sweep-uploads.service';
import { UploadImageService } from './use-cases/upload-image.service';

/** Upload keys and URLs (a contract shared with the pages service), over this process's storage. */
const uploadUrls = { provide: UploadUrls, inject: [Storage, APP_CONFIG], useFactory: (storage: Storage, config: AppConfig) => new UploadUrls(storage, config) };

/** The image upload call, mounted by the gateway: decoding, re-encoding and storing a creator's image. */
@Module({
  controllers: [UploadImageController],
  providers: [uploadUrls, AnnouncedSizeGuard, ProcessImageService, UploadImageService],
})
export class UploadsHttpModule {}

/**
 * The uploads queue's processor: removing images no page shows any more ('pages.delete-uploads'), and
 * every 6 hours the uploads never saved to a page ('pages.sweep-uploads', a job scheduler with a fixed id).
 * Which uploads a page shows is the pages service's to say, through the `UploadUsage` port of the contracts:
 * `forUsage` takes the module that provides it (the pages worker app passes the pages service's, and so
 * runs this queue in its process).
 */
@Module({})
export class UploadsWorkerModule {
  static forUsage(usage: NonNullable<ModuleMetadata['imports']>[number]): DynamicModule {
    return {
      module: UploadsWorkerModule,
      imports: [usage],
      providers: [uploadUrls, DeleteUploadsService, SweepUploadsService, UploadsProcessor],
    };
  }
}
