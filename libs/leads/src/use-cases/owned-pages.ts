import { Injectable, NotFoundException } from '@nestjs/common';
import { PageMessages } from '@plink/contracts';
import { PagesDirectory } from '@plink/pages';

export type OwnedPage = NonNullable<Awaited<ReturnType<PagesDirectory['findOwned']>>>;

/** A page of the signed-in user, or the same 404 for a missing page and another user's page. */
@Injectable()
export class OwnedPages {
  constructor(private readonly pages: PagesDirectory) {}

  async find(pageId: string, userId: number): Promise<OwnedPage> {
    const id = /^[1-9]\d{0,9}$/.test(pageId) ? Number(pageId) : NaN;
    const page = Number.isSafeInteger(id) && id <= 2_147_483_647 ? await this.pages.findOwned(id, userId) : null;
    if (!page) throw new NotFoundException({ message: PageMessages.pageNotFound });
    return page;
  }
}
