import { ForbiddenException, Injectable, NotFoundException } from '@nestjs/common';
import { EntityManager } from '@mikro-orm/postgresql';
import { PageMessages, TRASH_DAYS, TrashTexts, type TrashedPageDto } from '@plink/contracts';
import { Outbox } from '@plink/queue';
import type { SignedInUser } from '@plink/http';
import { PageChanges } from '../cache/page-changes';
import { PageEvents } from '../model/page-events';
import type { Page } from '../model/page.entity';
import { PagesRepository } from '../model/pages.repository';
import { OwnersRepository } from '../owners/owners.repository';
import { hasWebhookEndpoint, recordWebhookEndpoint, recordWebhookEndpointRemoved } from '../webhooks/webhook-endpoint-events';
import { PageRemoval } from './page-removal';
import { TrashClock } from './trash-clock';

export const TRASH_MS = TRASH_DAYS * 24 * 60 * 60 * 1000;

/**
 * A creator's Trash. Deleting a page moves it there: it is gone for visitors and for every copy of it at once
 * ('page.changed' with `page: null`, as a delete; its webhook endpoint removed; every replica's cached page
 * dropped), while its row, leads, analytics and uploads stay and its slug stays held. Restoring publishes its
 * state again, so every copy has it back. After {@link TRASH_DAYS} days the purge removes it for good
 * ({@link PageRemoval}).
 */
@Injectable()
export class TrashService {
  constructor(
    private readonly em: EntityManager,
    private readonly pages: PagesRepository,
    private readonly owners: OwnersRepository,
    private readonly events: PageEvents,
    private readonly outbox: Outbox,
    private readonly changes: PageChanges,
    private readonly removal: PageRemoval,
    private readonly clock: TrashClock,
  ) {}

  /** DELETE /api/pages/{id}: into the Trash. */
  async moveToTrash(userId: number, pageId: number): Promise<void> {
    const page = await this.em.fork().transactional(async (tx) => {
      await this.pages.lockOwner(tx, userId);
      const found = await this.pages.findOwned(pageId, userId, tx);
      if (!found) return null;
      found.deletedAt = this.clock.now();
      this.events.deleted(tx, found.id);
      if (hasWebhookEndpoint(found)) recordWebhookEndpointRemoved(this.outbox, tx, found);
      return found;
    });
    if (!page) throw new NotFoundException({ message: PageMessages.pageNotFound });
    await this.changes.publish([page.slug]);
  }

  /** GET /api/trash */
  async list(userId: number): Promise<TrashedPageDto[]> {
    return (await this.pages.listTrash(userId)).map(toTrashedPageDto);
  }

  /**
   * POST /api/pages/{id}/restore: the page is back as it was (live: on Pro every page is; on Free it may only
   * come back as the one active page, checked under the owner's lock as page creation does).
   */
  async restore(user: SignedInUser, pageId: number): Promise<Page> {
    const page = await this.em.fork().transactional(async (tx) => {
      await this.pages.lockOwner(tx, user.id);
      const found = await this.pages.findTrashed(pageId, user.id, tx);
      if (!found) return null;
      if (!user.isPremium && (await this.pages.countByOwner(user.id, tx)) >= 1) {
        throw new ForbiddenException({ message: TrashTexts.freePlanRestore });
      }
      found.deletedAt = null;
      found.pausedAt = null;
      const owner = await this.owners.remember(tx, user);
      await tx.flush();
      this.events.changed(tx, found, owner);
      if (hasWebhookEndpoint(found)) recordWebhookEndpoint(this.outbox, tx, found);
      return found;
    });
    if (!page) throw new NotFoundException({ message: TrashTexts.notInTrash });
    await this.changes.publish([page.slug]);
    return page;
  }

  /** DELETE /api/trash/{id}: removed for good now, with its leads, analytics and uploads. */
  async deleteForever(userId: number, pageId: number): Promise<void> {
    const removed = await this.removal.remove((tx) => this.pages.findTrashed(pageId, userId, tx));
    if (!removed) throw new NotFoundException({ message: TrashTexts.notInTrash });
  }
}

function toTrashedPageDto(page: Page): TrashedPageDto {
  const deletedAt = new Date(page.deletedAt!);
  return { id: page.id, slug: page.slug, title: page.title, deletedAt: deletedAt.toISOString(), purgeAt: new Date(deletedAt.getTime() + TRASH_MS).toISOString() };
}
