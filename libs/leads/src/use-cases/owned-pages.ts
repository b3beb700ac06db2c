import { Injectable, NotFoundException } from '@nestjs/common';
import { PageMessages } from '@plink/contracts';
import { OwnedPagesReader, type OwnedPage } from '../page-facts/ports';

/** A page of the signed-in user, or the same 404 for a missing page and another user's page. */
@Injectable()
export class OwnedPages {
  constructor(private readonly pages: OwnedPagesReader) {}

  async find(pageId: string, userId: number): Promise<OwnedPage> {
    const id = /^[1-9]\d{0,9}$/.test(pageId) ? Number(pageId) : NaN;
    const page = Number.isSafeInteger(id) && id <= 2_147_483_647 ? await this.pages.findOwned(id, userId) : null;
    if (!page) throw new NotFoundException({ message: PageMessages.pageNotFound });
    return page;
  }
}
