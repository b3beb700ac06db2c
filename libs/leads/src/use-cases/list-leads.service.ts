import { BadRequestException, Injectable } from '@nestjs/common';
import { CommonMessages, LEADS_PAGE_SIZE, leadsListQuerySchema, type LeadsPageDto } from '@plink/contracts';
import { LeadAnalyticsRepository } from '../model/lead-analytics.repository';
import { OwnedPages } from './owned-pages';

/** GET /api/pages/{id}/leads?page=&search=: the page's leads, 25 a page, newest first, with their sources (owner only). */
@Injectable()
export class ListLeadsService {
  constructor(
    private readonly owned: OwnedPages,
    private readonly leads: LeadAnalyticsRepository,
  ) {}

  async execute(pageId: string, userId: number, query: unknown): Promise<LeadsPageDto> {
    const parsed = leadsListQuerySchema.safeParse(query ?? {});
    if (!parsed.success) throw new BadRequestException({ message: CommonMessages.invalidRequest });
    const page = await this.owned.find(pageId, userId);
    const number = parsed.data.page ?? 1;
    const search = parsed.data.search?.trim() || undefined;
    const { leads, total } = await this.leads.list(page.id, number, search);
    return { leads, total, page: number, pageSize: LEADS_PAGE_SIZE };
  }
}
