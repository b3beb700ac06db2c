import { Injectable } from '@nestjs/common';
import { Storage } from '@plink/storage';
import { getLogger } from '@plink/observability';
import { UploadUrls, uploadKeyOwner, UploadUsage } from '@plink/contracts';

/**
 * Removes uploaded images no page shows any more ('pages.delete-uploads', recorded when a page is deleted
 * or an image of it replaced or cleared; also the sweep of uploads never saved to a page). A key that some
 * page still uses (a creator may reuse an image, 'Use Main Image' copies the main image into the sharing
 * image, the rich text may show it) is kept. Safe to repeat; a storage failure throws, so the job is tried
 * again.
 */
@Injectable()
export class DeleteUploadsService {
  constructor(
    private readonly usage: UploadUsage,
    private readonly urls: UploadUrls,
    private readonly storage: Storage,
  ) {}

  async execute(keys: string[]): Promise<void> {
    const { removed, kept } = await this.removeUnused(keys);
    getLogger().info({ removed, kept }, 'uploads of pages removed');
  }

  /**
   * Removes those of `keys` (each once) that are upload keys no page uses; says which went and how many
   * upload keys stayed because a page uses them.
   */
  async removeUnused(keys: string[]): Promise<{ removed: string[]; kept: number }> {
    const unused: string[] = [];
    let kept = 0;
    for (const key of new Set(keys)) {
      const owner = uploadKeyOwner(key);
      if (owner === null) continue; // not an upload key: never ours to remove
      if (await this.usage.usesUpload(this.urls.urlsOf(key), owner, key)) kept += 1;
      else unused.push(key);
    }
    if (unused.length > 0) await this.storage.deleteMany(unused);
    return { removed: unused, kept };
  }
}
