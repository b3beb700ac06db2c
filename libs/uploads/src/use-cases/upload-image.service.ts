import { ForbiddenException, HttpStatus, Injectable } from '@nestjs/common';
import { UploadMessages, type UploadImageResponse, type UploadImageType, UploadUrls, newUploadKey } from '@plink/contracts';
import { ApiError, type SignedInUser } from '@plink/http';
import { RateLimiter } from '@plink/redis';
import { Storage } from '@plink/storage';
import { getLogger } from '@plink/observability';
import { ProcessImageService } from '../images/process-image.service';

/** Uploads one user may make per minute (each costs a decode and an encode). */
export const UPLOADS_PER_MINUTE = 60;

/**
 * Stores a creator's image for one of a page's image fields: re-encoded for its use (see
 * ProcessImageService) under a new unguessable key of that user, answered with the URL the page keeps.
 * Nothing is stored when the file is refused. A file no page ends up using stays stored (see docs/architecture.md, Uploads).
 */
@Injectable()
export class UploadImageService {
  constructor(
    private readonly images: ProcessImageService,
    private readonly storage: Storage,
    private readonly urls: UploadUrls,
    private readonly limiter: RateLimiter,
  ) {}

  /** Checks that `user` may upload now, before the file is read. */
  async admit(user: SignedInUser): Promise<void> {
    if (!user.isVerified) throw new ForbiddenException({ message: UploadMessages.verifyFirst });
    const decision = await this.limiter.hit('uploads', String(user.id), UPLOADS_PER_MINUTE, 60);
    if (!decision.allowed) {
      throw new ApiError(HttpStatus.TOO_MANY_REQUESTS, UploadMessages.tooManyUploads, { 'retry-after': String(decision.retryAfterSeconds) });
    }
  }

  async execute(user: SignedInUser, type: UploadImageType, file: Buffer): Promise<UploadImageResponse> {
    const started = Date.now();
    const image = await this.images.execute(file, type);
    const key = newUploadKey(user.id, type, image.ext);
    await this.storage.put(key, image.body, image.contentType);
    getLogger().info(
      { userId: user.id, type, key, bytesIn: file.length, bytesOut: image.body.length, width: image.width, height: image.height, ms: Date.now() - started },
      'image uploaded',
    );
    return { imageUrl: this.urls.urlOf(key) };
  }
}
