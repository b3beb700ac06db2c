import { BadRequestException, Injectable, Optional } from '@nestjs/common';
import {
  CommonMessages,
  STATS_BREAKDOWN_ROWS,
  STATS_DEFAULT_DAYS,
  STATS_MAX_DAYS,
  conversionRate,
  percentChange,
  type PageAnalyticsDto,
  type StatsSourceRowDto,
} from '@plink/contracts';
import { LeadAnalyticsRepository, type LeadSourceKind } from '../model/lead-analytics.repository';
import { PageVisitsReader, type PageVisits } from '../page-facts/ports';

const DAY_MS = 86_400_000;
const DAY = /^\d{4}-\d{2}-\d{2}$/;

/** A range of UTC days, both included. */
export interface DayRange {
  from: string;
  to: string;
}

const dayOf = (ms: number) => new Date(ms).toISOString().slice(0, 10);
const msOf = (day: string) => Date.parse(`${day}T00:00:00Z`);

/**
 * The range asked for (`?from=&to=`, UTC days): `to` defaults to today, `from` to 29 days before it. A day
 * that is not one, `from` after `to` or a range longer than ten years: 400.
 */
export function rangeOf(query: { from?: unknown; to?: unknown }, now = Date.now()): DayRange {
  const valid = (v: unknown): v is string => typeof v === 'string' && DAY.test(v) && !Number.isNaN(msOf(v)) && dayOf(msOf(v)) === v;
  for (const v of [query.from, query.to]) if (v !== undefined && v !== '' && !valid(v)) throw new BadRequestException({ message: CommonMessages.invalidRequest });
  const to = valid(query.to) ? query.to : dayOf(now);
  const from = valid(query.from) ? query.from : dayOf(msOf(to) - (STATS_DEFAULT_DAYS - 1) * DAY_MS);
  const days = (msOf(to) - msOf(from)) / DAY_MS + 1;
  if (days < 1 || days > STATS_MAX_DAYS) throw new BadRequestException({ message: CommonMessages.invalidRequest });
  return { from, to };
}

/** The range of the same length just before. */
export function previousRange(range: DayRange): DayRange {
  const days = (msOf(range.to) - msOf(range.from)) / DAY_MS + 1;
  return { from: dayOf(msOf(range.from) - days * DAY_MS), to: dayOf(msOf(range.from) - DAY_MS) };
}

const NO_VISITS: PageVisits = { days: [], sources: [] };

/**
 * A page's series, totals and breakdowns over a range: views and visitors from the pages service's counts
 * (PageVisitsReader), leads from the leads table, each per UTC day.
 */
@Injectable()
export class PageAnalytics {
  constructor(
    private readonly leads: LeadAnalyticsRepository,
    @Optional() private readonly visitsReader?: PageVisitsReader,
  ) {}

  private visits(pageId: number, range: DayRange): Promise<PageVisits> {
    return this.visitsReader ? this.visitsReader.visits(pageId, range.from, range.to) : Promise.resolve(NO_VISITS);
  }

  async of(pageId: number, range: DayRange): Promise<PageAnalyticsDto> {
    const before = previousRange(range);
    const [visits, leadsPerDay, leadSources, withoutVisit, previousVisits, previousLeads] = await Promise.all([
      this.visits(pageId, range),
      this.leads.perDay(pageId, range.from, range.to),
      this.leads.perSource(pageId, range.from, range.to),
      this.leads.withoutVisit(pageId, range),
      this.visits(pageId, before),
      this.leads.perDay(pageId, before.from, before.to),
    ]);
    const byDay = new Map(visits.days.map((d) => [d.day, d]));
    const series = [];
    for (let ms = msOf(range.from); ms <= msOf(range.to); ms += DAY_MS) {
      const day = dayOf(ms);
      const v = byDay.get(day);
      series.push({ day, views: v?.views ?? 0, uniques: v?.uniques ?? 0, leads: leadsPerDay.get(day) ?? 0 });
    }
    const sum = (list: { views: number; uniques: number }[]) => list.reduce((s, d) => ({ views: s.views + d.views, uniques: s.uniques + d.uniques }), { views: 0, uniques: 0 });
    const now = { ...sum(visits.days), leads: series.reduce((s, d) => s + d.leads, 0) };
    const previous = { ...sum(previousVisits.days), leads: [...previousLeads.values()].reduce((s, n) => s + n, 0) };
    const breakdown = (kind: LeadSourceKind): StatsSourceRowDto[] => {
      const rows = new Map<string, { views: number; leads: number }>();
      for (const s of visits.sources) if (s.kind === kind) rows.set(s.value, { views: s.views, leads: 0 });
      for (const l of leadSources) {
        if (l.kind !== kind) continue;
        const row = rows.get(l.value) ?? { views: 0, leads: 0 };
        row.leads += l.leads;
        rows.set(l.value, row);
      }
      return [...rows]
        .map(([value, r]) => ({ value, views: r.views, leads: r.leads, conversionRate: conversionRate(r.views, r.leads) }))
        .sort((a, b) => b.views - a.views || b.leads - a.leads || a.value.localeCompare(b.value))
        .slice(0, STATS_BREAKDOWN_ROWS);
    };
    // A conversion is a lead of a counted visit: leads the API added or the plain form on another site sent
    // came without a view, so they are shown apart and count in no rate.
    const visitLeads = Math.max(0, now.leads - withoutVisit.api - withoutVisit.html);
    return {
      range,
      series,
      totals: {
        ...now,
        leadsWithoutVisit: withoutVisit,
        conversionRate: conversionRate(now.views, visitLeads),
        visitorConversionRate: conversionRate(now.uniques, visitLeads),
        previous,
        change: { views: percentChange(now.views, previous.views), uniques: percentChange(now.uniques, previous.uniques), leads: percentChange(now.leads, previous.leads) },
      },
      breakdowns: { referrers: breakdown('referrer'), utmSources: breakdown('utm_source'), utmCampaigns: breakdown('utm_campaign'), devices: breakdown('device') },
    };
  }
}
