import { Injectable } from '@nestjs/common';
import { EntityManager } from '@mikro-orm/postgresql';
import { getLogger } from '@plink/observability';
import { PageChanges } from '../cache/page-changes';
import { OwnersRepository, type OwnerChange } from '../owners/owners.repository';
import { decidePausing } from '../model/pause-rules';
import { PagesRepository } from '../model/pages.repository';
import { PageEvents } from '../model/page-events';

/**
 * A page owner's plan changed (billing's 'plan.changed'). The pages service's copy of the owner takes the
 * change unless it already holds a newer version; then their pages follow
 * the plan as that copy has it NOW (not what the job says, so a duplicate or late job cannot undo a newer
 * change): when Pro ended, the oldest page (or the one the owner chose to keep live) stays live and the
 * others are paused; when Pro started, every page is live again ({@link decidePausing}). Under the owner's
 * lock, like page creation and keep-live. Then the owner's visitor pages are rendered again at the next
 * visit in every replica, with the plan's rules applied at render time (branding back, custom code and
 * tracking gone on a downgrade; the owner's choices back on an upgrade; 'This page is paused' for a paused
 * page).
 */
@Injectable()
export class OwnerPlanChangedService {
  constructor(
    private readonly em: EntityManager,
    private readonly pages: PagesRepository,
    private readonly owners: OwnersRepository,
    private readonly changes: PageChanges,
    private readonly events: PageEvents,
  ) {}

  /** `now` is when pages are paused (a test passes its own clock); `change` is the plan as billing published it. */
  async execute(userId: number, now = new Date(), change: Omit<OwnerChange, 'userId'> = {}): Promise<{ paused: number; unpaused: number }> {
    const { slugs, paused, unpaused } = await this.em.fork().transactional(async (tx) => {
      await this.pages.lockOwner(tx, userId);
      await this.owners.apply(tx, { ...change, userId });
      const owner = await this.owners.find(userId, tx);
      const pages = await this.pages.listForPausing(userId, tx);
      // Not heard of yet (no job about them and no save of theirs): nothing is known to follow.
      if (!owner) return { slugs: pages.map((p) => p.slug), paused: 0, unpaused: 0 };
      const decision = decidePausing(pages, owner.isPremium);
      await this.pages.setPaused(tx, userId, decision.pause, now);
      await this.pages.setPaused(tx, userId, decision.unpause, null);
      // Every page of the owner: the plan decides what each shows (branding, custom code, tracking).
      const pausing = new Set(decision.pause);
      const unpausing = new Set(decision.unpause);
      for (const page of pages) {
        this.events.changed(tx, page, owner, { paused: pausing.has(page.id) || (!unpausing.has(page.id) && !!page.pausedAt) });
      }
      return { slugs: pages.map((p) => p.slug), paused: decision.pause.length, unpaused: decision.unpause.length };
    });
    if (slugs.length > 0) await this.changes.publish(slugs);
    getLogger().info({ userId, pages: slugs.length, paused, unpaused }, 'owner plan changed: pages follow the plan and are dropped from the caches');
    return { paused, unpaused };
  }
}
