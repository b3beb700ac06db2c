import { Injectable } from '@nestjs/common';
import { EntityManager } from '@mikro-orm/postgresql';
import { Readable, Transform } from 'node:stream';
import { ZipFile } from 'yazl';
import { UploadUrls, accountExportKeys, type JobPayload } from '@plink/contracts';
import { getLogger } from '@plink/observability';
import { Outbox } from '@plink/queue';
import { Storage } from '@plink/storage';
import { toPageDto } from '../model/page.dto';
import { Page } from '../model/page.entity';

/**
 * An account export's ZIP step ('pages.account-export'): `account.json` (identity's, from the job), then one
 * folder per page (`pages/{slug}/`) with `page.json`, its uploaded images (`uploads/…`) and the `leads.csv` the
 * leads service left in the store. Streamed end to end: each entry is opened only when the ZIP reaches it
 * (yazl's lazy streams), deflated as it passes, and the ZIP goes into the store as it is made, so memory stays
 * flat whatever the leads or images weigh. Then the leads' CSVs go and identity is told the ZIP is ready.
 */
@Injectable()
export class AccountExportZipService {
  constructor(
    private readonly em: EntityManager,
    private readonly storage: Storage,
    private readonly uploads: UploadUrls,
    private readonly outbox: Outbox,
  ) {}

  async execute(job: JobPayload<'pages.account-export'>): Promise<void> {
    const pages = await this.em.fork().find(Page, { userId: job.userId }, { orderBy: { id: 'asc' } });
    const zip = new ZipFile();
    zip.addBuffer(Buffer.from(JSON.stringify(job.account, null, 2)), 'account.json');
    for (const page of pages) {
      const folder = `pages/${page.slug}`;
      // The page as its owner edits it (its counts of leads are the leads.csv beside it).
      const { conversions: _conversions, pending: _pending, conversionsWithoutVisit: _withoutVisit, ...dto } = toPageDto(page, 0);
      zip.addBuffer(Buffer.from(JSON.stringify(dto, null, 2)), `${folder}/page.json`);
      for (const key of this.uploads.ownKeysOf(page, job.userId)) this.addStored(zip, key, `${folder}/uploads/${key.slice(key.indexOf('/') + 1)}`, false);
      this.addStored(zip, accountExportKeys.leads(job.userId, job.exportId, page.id), `${folder}/leads.csv`, true);
    }
    zip.end();
    let size = 0;
    const counted = zip.outputStream.pipe(
      new Transform({
        transform(chunk: Buffer, _encoding, done) {
          size += chunk.length;
          done(null, chunk);
        },
      }),
    );
    const storageKey = accountExportKeys.zip(job.userId, job.exportId);
    await this.storage.putStream(storageKey, counted, 'application/zip');
    await this.storage.deleteMany(pages.map((page) => accountExportKeys.leads(job.userId, job.exportId, page.id)));
    const em = this.em.fork();
    this.outbox.record(em, 'identity.account-export-ready', { v: 1, exportId: job.exportId, userId: job.userId, storageKey, size });
    await em.flush();
    getLogger().info({ userId: job.userId, exportId: job.exportId, pages: pages.length, size }, 'account export: ZIP stored');
  }

  /** An entry read from the store when the ZIP reaches it; a missing object is an empty entry (`required`) or none. */
  private addStored(zip: ZipFile, key: string, path: string, required: boolean): void {
    zip.addReadStreamLazy(path, (cb) => {
      this.storage.get(key).then(
        (object) => {
          if (object) return cb(null, object.body);
          if (!required) getLogger().warn({ key }, 'account export: an upload of a page is missing from the store');
          cb(null, Readable.from([]));
        },
        (err) => cb(err, undefined as unknown as NodeJS.ReadableStream),
      );
    });
  }
}
