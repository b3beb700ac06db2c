import { Inject, Injectable } from '@nestjs/common';
import { APP_CONFIG, type AppConfig } from '@plink/config';
import { Storage } from '@plink/storage';
import { getLogger } from '@plink/observability';
import { uploadKeyOwner } from '@plink/contracts';
import { DeleteUploadsService } from './delete-uploads.service';

/** Keys checked against the pages and removed together: one `deleteMany` each, and flat memory however many files. */
export const SWEEP_BATCH_SIZE = 500;

export interface SweepOptions {
  /** The time the grace period counts back from (tests pass one; the job uses the clock). */
  now?: Date;
  /** Hours an upload may stay unused; UPLOAD_ORPHAN_GRACE_HOURS unless told. */
  graceHours?: number;
  batchSize?: number;
}

export interface SweepResult {
  /** Upload keys seen in the store. */
  listed: number;
  /** Younger than the grace period: left alone, whether used or not. */
  fresh: number;
  /** Old enough, and no page shows them: removed. */
  removed: number;
  /** Old enough, but some page shows them. */
  kept: number;
}

/**
 * 'pages.sweep-uploads': removes images uploaded in the editor but never saved to a page. Lists every
 * upload key in the store (`u{userId}/…`, anything else is not ours), leaves those younger than the grace
 * period (a creator may still be editing), and hands the others, a batch at a time, to
 * {@link DeleteUploadsService}, which keeps any key a page still shows (an image field, or the owner's
 * rich text). Safe to repeat and to run on two workers at once; a store or database failure throws, so
 * the job is tried again (and the next sweep comes anyway).
 */
@Injectable()
export class SweepUploadsService {
  constructor(
    private readonly storage: Storage,
    private readonly deleteUploads: DeleteUploadsService,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  async execute(options: SweepOptions = {}): Promise<SweepResult> {
    const started = Date.now();
    const now = options.now ?? new Date();
    const graceHours = options.graceHours ?? this.config.uploadOrphanGraceHours;
    const batchSize = Math.max(1, options.batchSize ?? SWEEP_BATCH_SIZE);
    const cutoff = now.getTime() - graceHours * 3_600_000;
    const result: SweepResult = { listed: 0, fresh: 0, removed: 0, kept: 0 };

    let batch: string[] = [];
    const settle = async () => {
      const { removed, kept } = await this.deleteUploads.removeUnused(batch);
      result.removed += removed.length;
      result.kept += kept;
      batch = [];
    };
    // Every upload key starts with `u` (`u{userId}/`): the listing skips whatever else the store holds.
    for await (const item of this.storage.list('u')) {
      if (uploadKeyOwner(item.key) === null) continue;
      result.listed += 1;
      if (item.lastModified.getTime() > cutoff) {
        result.fresh += 1;
        continue;
      }
      batch.push(item.key);
      if (batch.length >= batchSize) await settle();
    }
    if (batch.length > 0) await settle();

    // Counts only: keys name their owners, and a sweep may remove thousands.
    getLogger().info({ ...result, graceHours, ms: Date.now() - started }, 'uploads sweep: unsaved uploads removed');
    return result;
  }
}
