import { Injectable } from '@nestjs/common';
import { EntityManager } from '@mikro-orm/postgresql';
import { IdentityDirectory } from '@plink/identity';
import { getLogger } from '@plink/platform';
import { PageChanges } from '../cache/page-changes';
import { decidePausing } from '../pages/pause-rules';
import { PagesRepository } from '../pages/pages.repository';

/**
 * A page owner's plan changed (identity has stored it). Their pages follow the plan as identity has it
 * NOW (not what the job says, so a duplicate or late job cannot undo a newer change): when Pro ended, the
 * oldest page (or the one the owner chose to keep live) stays live and the others are paused; when Pro
 * started, every page is live again ({@link decidePausing}). Under the owner's lock, like page creation
 * and keep-live. Then the owner's visitor pages are rendered again at the next visit in every replica,
 * with the plan's rules applied at render time (branding back, custom code and tracking gone on a
 * downgrade; the owner's choices back on an upgrade; 'This page is paused' for a paused page).
 */
@Injectable()
export class OwnerPlanChangedService {
  constructor(
    private readonly em: EntityManager,
    private readonly pages: PagesRepository,
    private readonly identity: IdentityDirectory,
    private readonly changes: PageChanges,
  ) {}

  /** `now` is when pages are paused (a test passes its own clock). */
  async execute(userId: number, now = new Date()): Promise<{ paused: number; unpaused: number }> {
    const { slugs, paused, unpaused } = await this.em.fork().transactional(async (tx) => {
      await this.pages.lockOwner(tx, userId);
      const owner = await this.identity.findContact(userId);
      const pages = await this.pages.listForPausing(userId, tx);
      if (!owner) return { slugs: pages.map((p) => p.slug), paused: 0, unpaused: 0 };
      const decision = decidePausing(pages, owner.isPremium);
      await this.pages.setPaused(tx, userId, decision.pause, now);
      await this.pages.setPaused(tx, userId, decision.unpause, null);
      return { slugs: pages.map((p) => p.slug), paused: decision.pause.length, unpaused: decision.unpause.length };
    });
    if (slugs.length > 0) await this.changes.publish(slugs);
    getLogger().info({ userId, pages: slugs.length, paused, unpaused }, 'owner plan changed: pages follow the plan and are dropped from the caches');
    return { paused, unpaused };
  }
}
