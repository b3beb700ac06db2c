import { Injectable } from '@nestjs/common';
import { getLogger } from '@plink/platform';
import { PageChanges } from '../cache/page-changes';
import { PagesRepository } from '../pages/pages.repository';

/**
 * A page owner's plan changed (identity has stored it): their visitor pages are rendered again at the next
 * visit in every replica, with the plan's rules applied at render time (branding back, custom code and
 * tracking gone on a downgrade; the owner's choices back on an upgrade). Nothing in the pages changes.
 */
@Injectable()
export class OwnerPlanChangedService {
  constructor(
    private readonly pages: PagesRepository,
    private readonly changes: PageChanges,
  ) {}

  async execute(userId: number): Promise<void> {
    const slugs = (await this.pages.listByOwner(userId)).map((page) => page.slug);
    if (slugs.length > 0) await this.changes.publish(slugs);
    getLogger().info({ userId, pages: slugs.length }, 'owner plan changed: pages dropped from the caches');
  }
}
