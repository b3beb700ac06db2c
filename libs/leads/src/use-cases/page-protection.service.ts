import { Injectable } from '@nestjs/common';
import type { PageProtectionDto } from '@plink/contracts';
import { FloodWatch } from '../shield/flood-watch';
import { OwnedPages } from './owned-pages';

/** GET and DELETE /api/pages/{id}/protection: the page's "under attack" switch, for its owner only. */
@Injectable()
export class PageProtectionService {
  constructor(
    private readonly owned: OwnedPages,
    private readonly flood: FloodWatch,
  ) {}

  async read(pageId: string, userId: number): Promise<PageProtectionDto> {
    const page = await this.owned.find(pageId, userId);
    const until = await this.flood.state(page.id);
    return { underAttackUntil: until ? until.toISOString() : null };
  }

  async end(pageId: string, userId: number): Promise<PageProtectionDto> {
    const page = await this.owned.find(pageId, userId);
    await this.flood.end(page.id);
    return { underAttackUntil: null };
  }
}
