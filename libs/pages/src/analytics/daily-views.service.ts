import { Injectable } from '@nestjs/common';
import { SPARKLINE_DAYS, type DailyViewsDto } from '@plink/contracts';
import { PageAnalyticsRepository } from './page-analytics.repository';

const DAY_MS = 86_400_000;
const utcDay = (at: number) => new Date(at).toISOString().slice(0, 10);

/**
 * The dashboard's sparklines: each of a creator's pages' views per UTC day over the last {@link SPARKLINE_DAYS}
 * days, from the daily rows the view flush keeps (one query for every page; no per-view rows exist to count).
 * Days are UTC, as on the stats screen; today's count is at most a second behind (the flush's interval).
 */
@Injectable()
export class DailyViewsService {
  constructor(private readonly analytics: PageAnalyticsRepository) {}

  async execute(ownerId: number, now = Date.now()): Promise<DailyViewsDto> {
    const days = Array.from({ length: SPARKLINE_DAYS }, (_, i) => utcDay(now - (SPARKLINE_DAYS - 1 - i) * DAY_MS));
    const from = days[0];
    const to = days[days.length - 1];
    const index = new Map(days.map((day, i) => [day, i]));
    const views: Record<string, number[]> = {};
    for (const row of await this.analytics.viewsPerDayOfOwner(ownerId, from, to)) {
      const series = (views[String(row.pageId)] ??= new Array<number>(SPARKLINE_DAYS).fill(0));
      const at = index.get(row.day);
      if (at !== undefined) series[at] = row.views;
    }
    return { from, to, views };
  }
}
