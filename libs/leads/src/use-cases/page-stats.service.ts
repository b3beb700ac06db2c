import { Injectable } from '@nestjs/common';
import { STATS_RECENT_LEADS, conversionRate, type PageStatsDto } from '@plink/contracts';
import { LeadAnalyticsRepository } from '../model/lead-analytics.repository';
import { LeadsRepository } from '../model/leads.repository';
import { BlockedCounter } from '../shield/blocked-counter';
import { OwnedPages } from './owned-pages';
import { PageAnalytics, rangeOf } from './page-analytics';

/**
 * GET /api/pages/{id}/stats: views, conversions (confirmed leads; those without a counted view apart), pending
 * leads, rate, the newest leads, the refused submissions, and the range's series and breakdowns (owner only).
 */
@Injectable()
export class PageStatsService {
  constructor(
    private readonly owned: OwnedPages,
    private readonly leads: LeadsRepository,
    private readonly blocked: BlockedCounter,
    private readonly analytics: PageAnalytics,
    private readonly leadAnalytics: LeadAnalyticsRepository,
  ) {}

  async execute(pageId: string, userId: number, query: { from?: unknown; to?: unknown } = {}): Promise<PageStatsDto> {
    const range = rangeOf(query);
    const page = await this.owned.find(pageId, userId);
    const [conversions, withoutVisit, pending, recent, blocked, analytics] = await Promise.all([
      this.leads.conversions(page.id),
      this.leadAnalytics.withoutVisit(page.id),
      this.leads.pendingFor([page.id]),
      this.leads.recent(page.id, STATS_RECENT_LEADS),
      this.blocked.read(page.id),
      this.analytics.of(page.id, range),
    ]);
    return {
      ...analytics,
      views: page.views,
      conversions,
      pending: pending.get(page.id) ?? 0,
      conversionsWithoutVisit: withoutVisit,
      // Leads the API added or the plain form on another site sent came without a view: no rate counts them.
      conversionRate: conversionRate(page.views, Math.max(0, conversions - withoutVisit.api - withoutVisit.html)),
      leads: recent.map((l) => ({ id: l.id, email: l.email, createdAt: l.createdAt.toISOString(), status: l.status })),
      blocked,
    };
  }
}
