import { Injectable } from '@nestjs/common';
import { EntityManager, UniqueConstraintViolationException, raw } from '@mikro-orm/postgresql';
import { Page } from './page.entity';

/** Rows of the VALUES list of one batched views UPDATE (2 parameters each; PostgreSQL allows 65,535). */
const VIEWS_PER_STATEMENT = 5_000;

/** The pages service's only door to its tables. */
@Injectable()
export class PagesRepository {
  constructor(private readonly em: EntityManager) {}

  /*
   * A page in the Trash (`deleted_at` set) is gone for every read here but the Trash's own and the slug check:
   * its address stays held until the purge removes it.
   */

  /** A user's pages, newest first (not those in the Trash). */
  listByOwner(userId: number): Promise<Page[]> {
    return this.em.find(Page, { userId, deletedAt: null }, { orderBy: { createdAt: 'desc', id: 'desc' } });
  }

  findOwned(id: number, userId: number, em: EntityManager = this.em): Promise<Page | null> {
    return em.findOne(Page, { id, userId, deletedAt: null });
  }

  findById(id: number): Promise<Page | null> {
    return this.em.findOne(Page, { id, deletedAt: null });
  }

  /** A user's pages in the Trash, the latest deleted first. */
  listTrash(userId: number): Promise<Page[]> {
    return this.em.find(Page, { userId, deletedAt: { $ne: null } }, { orderBy: { deletedAt: 'desc', id: 'desc' } });
  }

  /** One of the user's pages in the Trash, or null. */
  findTrashed(id: number, userId: number, em: EntityManager = this.em): Promise<Page | null> {
    return em.findOne(Page, { id, userId, deletedAt: { $ne: null } });
  }

  /** Pages in the Trash since before `before` (the purge's pass), oldest first. */
  listTrashedBefore(before: Date, limit: number): Promise<Page[]> {
    return this.em.fork().find(Page, { deletedAt: { $ne: null, $lt: before } }, { orderBy: { deletedAt: 'asc', id: 'asc' }, limit });
  }

  /** Plink's example pages that are there (an install where a creator held an example's slug first lacks it). */
  findExamples(): Promise<Page[]> {
    return this.em.find(Page, { isExample: true });
  }

  /** The page of a slug, whatever its case. */
  findBySlug(slug: string): Promise<Page | null> {
    return this.em.findOne(Page, { [raw('lower(slug)')]: slug.toLowerCase(), deletedAt: null });
  }

  /**
   * Applies `fields` to a page loaded through this repository and writes them. `withChange` runs after they
   * are applied and before they are written, with the unit of work that writes them: jobs it records
   * (Outbox.record) commit with the change. A slug taken meanwhile throws (see {@link isSlugConflict}).
   */
  async update(page: Page, fields: Partial<Page>, withChange?: (em: EntityManager) => void): Promise<void> {
    this.em.assign(page, fields);
    withChange?.(this.em);
    await this.em.flush();
  }

  /**
   * Deletes one of the user's pages in a transaction, with what `withDelete` records in it (Outbox.record:
   * jobs that follow the delete). Answers the deleted page, or null when the user has no such page.
   */
  deleteOwned(id: number, userId: number, withDelete: (em: EntityManager, page: Page) => void): Promise<Page | null> {
    return this.em.transactional(async (tx) => {
      const page = await this.findOwned(id, userId, tx);
      if (!page) return null;
      tx.remove(page);
      withDelete(tx, page);
      return page;
    });
  }

  /**
   * Removes a page for good (the Trash's "Delete forever", or its purge), with what `withDelete` records in
   * the same transaction. Its analytics rows go with it (on delete cascade). Answers the page, or null when
   * it is no longer in the Trash (restored or already removed meanwhile).
   */
  removeTrashed(find: (em: EntityManager) => Promise<Page | null>, withDelete: (em: EntityManager, page: Page) => void): Promise<Page | null> {
    return this.em.fork().transactional(async (tx) => {
      const page = await find(tx);
      if (!page?.deletedAt) return null;
      tx.remove(page);
      withDelete(tx, page);
      return page;
    });
  }

  /** Whether another page (not `exceptId`) already has this slug, in any case. */
  async slugTaken(slug: string, exceptId?: number, em: EntityManager = this.em): Promise<boolean> {
    const rows: { taken: boolean }[] = await em.execute(
      'select exists(select 1 from pages.pages where lower(slug) = lower(?) and id <> ?) as taken',
      [slug, exceptId ?? 0],
    );
    return !!rows[0]?.taken;
  }

  /** A user's pages as the pausing rules see them (see pause-rules.ts), oldest first. */
  listForPausing(userId: number, em: EntityManager): Promise<Page[]> {
    return em.find(Page, { userId, deletedAt: null }, { orderBy: { createdAt: 'asc', id: 'asc' }, refresh: true });
  }

  /** Pauses (at `at`) or un-pauses (null) these pages of the user. */
  async setPaused(em: EntityManager, userId: number, ids: number[], at: Date | null): Promise<void> {
    if (ids.length === 0) return;
    await em.nativeUpdate(Page, { userId, id: { $in: ids } }, { pausedAt: at });
  }

  /** The ids of a user's paused pages. */
  async pausedIdsOf(userId: number, em: EntityManager = this.em): Promise<number[]> {
    const rows: { id: number }[] = await em.execute('select id from pages.pages where user_id = ? and paused_at is not null order by id', [userId]);
    return rows.map((r) => Number(r.id));
  }

  /** A user's active pages (live or paused; not those in the Trash): the Free plan's one-page rule counts these. */
  countByOwner(userId: number, em: EntityManager = this.em): Promise<number> {
    return em.count(Page, { userId, deletedAt: null });
  }

  /**
   * Serialises the page creations of one user until the transaction ends, so that a plan limit checked
   * inside it holds even for concurrent requests.
   */
  async lockOwner(em: EntityManager, userId: number): Promise<void> {
    await em.execute('select pg_advisory_xact_lock(hashtext(?), ?)', ['pages.owner', userId]);
  }

  /**
   * Adds one batch of buffered views to the pages, once: the batch id is recorded in the same transaction,
   * so a batch seen again (a retry after a crash between commit and clean-up) changes nothing.
   * Answers false when the batch was already applied.
   */
  async addViews(batchId: string, views: [pageId: number, count: number][]): Promise<boolean> {
    return this.em.fork().transactional(async (tx) => {
      const claimed: unknown[] = await tx.execute(
        'insert into pages.view_flushes (batch_id) values (?) on conflict do nothing returning batch_id',
        [batchId],
      );
      if (claimed.length === 0) return false;
      for (let i = 0; i < views.length; i += VIEWS_PER_STATEMENT) {
        const chunk = views.slice(i, i + VIEWS_PER_STATEMENT);
        await tx.execute(
          `update pages.pages as p set views = p.views + v.n
             from (values ${chunk.map(() => '(?::integer, ?::bigint)').join(', ')}) as v(id, n)
            where p.id = v.id`,
          chunk.flat(),
        );
      }
      await tx.execute("delete from pages.view_flushes where flushed_at < now() - interval '1 day'");
      return true;
    });
  }

  /**
   * Whether any page shows an upload: one of its image fields holds one of the upload's `urls`, or (for
   * pages of the upload's owner) its rich text mentions the upload's key.
   */
  async usesUpload(urls: string[], ownerId: number, key: string): Promise<boolean> {
    const list = urls.map(() => '?').join(', ');
    const rows: { used: boolean }[] = await this.em.execute(
      `select exists(
          select 1 from pages.pages
           where image_url in (${list}) or background_image in (${list}) or meta_image_url in (${list}) or favicon_url in (${list})
        ) or exists(select 1 from pages.pages where user_id = ? and strpos(subtext, ?) > 0) as used`,
      [...urls, ...urls, ...urls, ...urls, ownerId, key],
    );
    return !!rows[0]?.used;
  }

  /** Whether an insert or update failed on the slug's unique index. */
  static isSlugConflict(err: unknown): boolean {
    return err instanceof UniqueConstraintViolationException && /slug/.test(err.message);
  }
}
