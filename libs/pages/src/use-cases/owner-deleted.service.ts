import { Injectable, OnModuleInit } from '@nestjs/common';
import { EntityManager } from '@mikro-orm/postgresql';
import { getLogger } from '@plink/observability';
import { Outbox } from '@plink/queue';
import { Storage } from '@plink/storage';
import { PageChanges } from '../cache/page-changes';
import { PageEvents } from '../model/page-events';
import { PagesRepository } from '../model/pages.repository';

/** Where a user's files are kept: their uploads (`u{id}/…`, see UploadUrls) and their account exports' files. */
function storagePrefixesOf(userId: number): string[] {
  return [`u${userId}/`, `exports/u${userId}/`];
}

/**
 * A page owner deleted their account (identity's 'user.deleted'). In one transaction, under the owner's lock:
 * their pages go (their per-day analytics with them, `on delete cascade`), each with its 'page.changed'
 * (`page: null`: the leads service's copy forgets it) and its 'leads.delete-for-page' job (the leads service
 * removes its leads and counters), then the pages service's copy of the owner. A message that comes again finds
 * nothing and changes nothing. The owner's webhook endpoints and logs are the notifications service's own
 * answer to the same event (no 'webhook-endpoint.changed' here: it would leave a tombstone naming the owner).
 */
@Injectable()
export class OwnerDeletedService {
  constructor(
    private readonly em: EntityManager,
    private readonly pages: PagesRepository,
    private readonly events: PageEvents,
    private readonly outbox: Outbox,
    private readonly changes: PageChanges,
  ) {}

  /** The removal in `em`'s transaction; answers the slugs removed (for the caches). */
  async removeIn(em: EntityManager, userId: number): Promise<string[]> {
    await this.pages.lockOwner(em, userId);
    const removed = await em.execute<{ id: number; slug: string }[]>('delete from pages.pages where user_id = ? returning id, slug', [userId]);
    for (const page of removed) {
      this.outbox.record(em, 'leads.delete-for-page', { v: 1, pageId: page.id });
      this.events.deleted(em, page.id);
    }
    await em.execute('delete from pages.owners where user_id = ?', [userId]);
    return removed.map((page) => page.slug);
  }

  /**
   * The pages worker's handling: the removal (nothing left when the gateway applied it already), the caches
   * dropped, then every stored object under the user's prefixes: their uploads (those of deleted pages, those
   * never saved to a page, the images of their rich text) and their account exports' files.
   */
  async execute(userId: number, storage: Storage): Promise<void> {
    const slugs = await this.em.fork().transactional((tx) => this.removeIn(tx, userId));
    if (slugs.length > 0) await this.changes.publish(slugs);
    let objects = 0;
    for (const prefix of storagePrefixesOf(userId)) {
      let batch: string[] = [];
      for await (const object of storage.list(prefix)) {
        batch.push(object.key);
        if (batch.length === 500) {
          await storage.deleteMany(batch);
          objects += batch.length;
          batch = [];
        }
      }
      if (batch.length > 0) await storage.deleteMany(batch);
      objects += batch.length;
    }
    getLogger().info({ userId, pages: slugs.length, objects }, 'account deleted: pages and stored files removed');
  }
}

/**
 * In the gateway (which serves the public pages), 'user.deleted' removes the owner's pages in identity's very
 * transaction (Outbox.applyHere), and every replica drops them from its cache once it commits: the public
 * address answers 404 the moment the account is gone, without waiting for the pages worker (whose relayed
 * message then finds nothing, and removes the stored files).
 */
@Injectable()
export class DeleteOwnerPagesHere implements OnModuleInit {
  constructor(
    private readonly outbox: Outbox,
    private readonly owners: OwnerDeletedService,
    private readonly changes: PageChanges,
  ) {}

  onModuleInit() {
    this.outbox.applyHere('user.deleted', async (em, payload) => {
      const slugs = await this.owners.removeIn(em, payload.userId);
      return slugs.length > 0 ? () => this.changes.publish(slugs) : undefined;
    });
  }
}
