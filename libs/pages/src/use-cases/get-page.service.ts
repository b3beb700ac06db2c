import { Injectable, NotFoundException } from '@nestjs/common';
import { PageMessages, type PageDto } from '@plink/contracts';
import { ConversionsReader } from '../model/conversions-reader';
import { toPageDto } from '../model/page.dto';
import { PagesRepository } from '../model/pages.repository';

/** One of the creator's pages; another user's page does not exist for them (404). */
@Injectable()
export class GetPageService {
  constructor(
    private readonly pages: PagesRepository,
    private readonly conversions: ConversionsReader,
  ) {}

  async execute(userId: number, pageId: number): Promise<PageDto> {
    const page = await this.pages.findOwned(pageId, userId);
    if (!page) throw new NotFoundException({ message: PageMessages.pageNotFound });
    const ids = [page.id];
    const [counts, pending, withoutVisit] = await Promise.all([this.conversions.conversionsFor(ids), this.conversions.pendingFor(ids), this.conversions.withoutVisitFor(ids)]);
    return toPageDto(page, counts.get(page.id) ?? 0, pending.get(page.id) ?? 0, withoutVisit.get(page.id) ?? 0);
  }
}
