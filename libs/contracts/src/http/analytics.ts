import { z } from 'zod';
import type { LeadDto, LeadSourceDto } from './leads';

/** The longest range `GET /api/pages/{id}/stats` answers, in days (ten years). */
export const STATS_MAX_DAYS = 3_660;
/** The range answered when none is asked for: the last 30 UTC days. */
export const STATS_DEFAULT_DAYS = 30;
/** Rows per breakdown (top values by views, then leads). */
export const STATS_BREAKDOWN_ROWS = 20;
/** Days of the dashboard's sparklines (`GET /api/pages/daily-views`): the last 30 UTC days, today included. */
export const SPARKLINE_DAYS = 30;
/** Leads per page of `GET /api/pages/{id}/leads`. */
export const LEADS_PAGE_SIZE = 25;

const day = z.string().regex(/^\d{4}-\d{2}-\d{2}$/);

/** `?from=&to=` of the stats call: UTC days, both included (`to` defaults to today, `from` to 29 days before). */
export const statsRangeQuerySchema = z.object({
  from: day.optional(),
  to: day.optional(),
});

/** `?page=&search=` of the leads list. */
export const leadsListQuerySchema = z.object({
  page: z.coerce.number().int().min(1).max(100_000).optional(),
  search: z.string().max(254).optional(),
});

/** One UTC day of a page. */
export interface StatsDayDto {
  day: string;
  views: number;
  /** Unique visitors that day (a daily count: a visitor of two days counts on each). */
  uniques: number;
  leads: number;
}

/** A range's totals; `change` is the percent against the range of the same length just before (null: nothing then). */
export interface StatsTotalsDto {
  views: number;
  uniques: number;
  /** Confirmed leads of the range, however they came (the series' leads added up). */
  leads: number;
  /**
   * Of `leads`, those that came without a view Plink counted: added through the API (`api`) and sent by the
   * plain-HTML form on other sites (`html`). Counted in `leads`, never in a conversion rate.
   */
  leadsWithoutVisit: { api: number; html: number };
  /** Leads that came through a counted view (`leads` less `leadsWithoutVisit`) ÷ views, percent, one decimal, at most 100. */
  conversionRate: number;
  /** Leads that came through a counted view ÷ unique visitors, percent, one decimal, at most 100. */
  visitorConversionRate: number;
  previous: { views: number; uniques: number; leads: number };
  change: { views: number | null; uniques: number | null; leads: number | null };
}

/** One value of a breakdown (a referrer, a campaign, a device). */
export interface StatsSourceRowDto {
  value: string;
  views: number;
  /** Leads with this value that came through a counted view. */
  leads: number;
  /** leads ÷ views, percent, one decimal, at most 100 (0 without views). */
  conversionRate: number;
}

/** What `GET /api/pages/{id}/stats?from=&to=` adds to the page's totals. */
export interface PageAnalyticsDto {
  /** The UTC days answered, both included. */
  range: { from: string; to: string };
  /** Every day of the range, oldest first (zeros for a day without a view). */
  series: StatsDayDto[];
  totals: StatsTotalsDto;
  breakdowns: {
    referrers: StatsSourceRowDto[];
    utmSources: StatsSourceRowDto[];
    utmCampaigns: StatsSourceRowDto[];
    devices: StatsSourceRowDto[];
  };
}

/** A lead as the leads list shows it: where it came from, and its one-word `source`. */
export interface LeadListItemDto extends LeadDto, LeadSourceDto {
  /** By precedence `ref` > `source` > `utm_source` > referrer (null: direct). */
  sourceLabel: string | null;
}

/** `GET /api/pages/{id}/leads?page=&search=`. */
export interface LeadsPageDto {
  leads: LeadListItemDto[];
  /** Leads matching the search (all of them without one). */
  total: number;
  page: number;
  pageSize: number;
}

/** Percent change from `before` to `now`, one decimal; null when there was nothing before. */
export function percentChange(now: number, before: number): number | null {
  if (!before) return null;
  return Math.round(((now - before) / before) * 1000) / 10;
}

/** `GET /api/pages/daily-views`: each of the creator's pages' views per UTC day over the last {@link SPARKLINE_DAYS} days. */
export interface DailyViewsDto {
  /** The first and last UTC day answered (`YYYY-MM-DD`). */
  from: string;
  to: string;
  /** By page id: one count per day from `from` to `to`, oldest first (0 for a day without a view); a page without a view in these days is left out. */
  views: Record<string, number[]>;
}
