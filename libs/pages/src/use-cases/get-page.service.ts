import { Injectable, NotFoundException } from '@nestjs/common';
import { PageMessages, type PageDto } from '@plink/contracts';
import { ConversionsReader } from '../pages/conversions-reader';
import { toPageDto } from '../pages/page.dto';
import { PagesRepository } from '../pages/pages.repository';

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
    const counts = await this.conversions.conversionsFor([page.id]);
    return toPageDto(page, counts.get(page.id) ?? 0);
  }
}
