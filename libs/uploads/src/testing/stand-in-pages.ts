import { MikroORM } from '@mikro-orm/postgresql';
import type { INestApplicationContext } from '@nestjs/common';
import { Outbox } from '@plink/queue';
import { UploadUrls, UploadUsage } from '@plink/contracts';
import { withOrmContext } from '@plink/data';

/** The page fields that may show an uploaded image, as pages has them. */
const IMAGE_FIELDS = ['imageUrl', 'backgroundImage', 'metaImageUrl', 'faviconUrl'] as const;
type PageImages = { [F in (typeof IMAGE_FIELDS)[number]]?: string | null };

/** A page as the stand-in pages service keeps it: its owner, image fields and rich text. */
export interface StandInPage extends PageImages {
  id: number;
  ownerId: number;
  subtext: string | null;
  deleted: boolean;
}

export type PageImageFields = PageImages & { subtext?: string | null };

/**
 * The pages service as the uploads service meets it: its pages (kept here, in memory), the answer to the
 * `UploadUsage` port that the pages service gives the uploads queue (an upload is in use while any page
 * shows it in an image field, under any of its URLs, or the owner's rich text names its key), and the
 * 'pages.delete-uploads' job pages records through the outbox when a page is deleted or an edit drops one
 * of its own uploads (replaced or cleared). Creating a page records nothing, as in pages.
 */
export class StandInPages extends UploadUsage {
  private readonly pages = new Map<number, StandInPage>();
  private nextId = 1_000;
  app?: INestApplicationContext;

  async usesUpload(urls: string[], ownerId: number, key: string): Promise<boolean> {
    const live = [...this.pages.values()].filter((page) => !page.deleted);
    return live.some(
      (page) => IMAGE_FIELDS.some((field) => urls.includes(page[field] ?? '')) || (page.ownerId === ownerId && (page.subtext ?? '').includes(key)),
    );
  }

  /** A new page of the owner showing those images. */
  create(ownerId: number, fields: PageImageFields = {}): StandInPage {
    this.nextId += 1;
    const page: StandInPage = { id: this.nextId, ownerId, subtext: null, deleted: false, ...fields };
    this.pages.set(page.id, page);
    return page;
  }

  /** An edit of the page; the owner's uploads it no longer shows go to the uploads queue, as pages records them. */
  async update(page: StandInPage, fields: PageImageFields): Promise<void> {
    const before = this.urls.ownKeysOf(page, page.ownerId);
    Object.assign(page, fields);
    const after = new Set(this.urls.ownKeysOf(page, page.ownerId));
    const dropped = before.filter((key) => !after.has(key));
    if (dropped.length > 0) await this.recordDeleteUploads(dropped);
  }

  /** The page deleted: every upload of the owner it showed goes to the uploads queue (which keeps those still in use). */
  async delete(page: StandInPage): Promise<void> {
    page.deleted = true;
    const keys = this.urls.ownKeysOf(page, page.ownerId);
    if (keys.length > 0) await this.recordDeleteUploads(keys);
  }

  private get urls(): UploadUrls {
    return this.app!.get(UploadUrls, { strict: false });
  }

  private async recordDeleteUploads(keys: string[]): Promise<void> {
    const app = this.app!;
    const orm = app.get<MikroORM>(MikroORM);
    const outbox = app.get(Outbox);
    await withOrmContext(orm, () => orm.em.transactional(async (em) => outbox.record(em, 'pages.delete-uploads', { v: 1, keys })));
  }
}
