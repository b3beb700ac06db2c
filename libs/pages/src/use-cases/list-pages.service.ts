import { Injectable } from '@nestjs/common';
import type { PageDto } from '@plink/contracts';
import { ConversionsReader } from '../model/conversions-reader';
import { toPageDto } from '../model/page.dto';
import { PagesRepository } from '../model/pages.repository';

/** A creator's own pages, newest first, with their views and conversions. */
@Injectable()
export class ListPagesService {
  constructor(
    private readonly pages: PagesRepository,
    private readonly conversions: ConversionsReader,
  ) {}

  async execute(userId: number): Promise<PageDto[]> {
    const pages = await this.pages.listByOwner(userId);
    if (pages.length === 0) return [];
    const ids = pages.map((p) => p.id);
    const [counts, pending, withoutVisit] = await Promise.all([this.conversions.conversionsFor(ids), this.conversions.pendingFor(ids), this.conversions.withoutVisitFor(ids)]);
    return pages.map((page) => toPageDto(page, counts.get(page.id) ?? 0, pending.get(page.id) ?? 0, withoutVisit.get(page.id) ?? 0));
  }
}
