import { Injectable } from '@nestjs/common';
import { EntityManager } from '@mikro-orm/postgresql';
import type { ClaimedAnalytics, SourceCount } from './pending-analytics.store';
import type { SourceKind } from '@plink/http';

/** Distinct values kept per page, day and kind; the rest are added up under {@link OTHER}. */
export const TOP_VALUES_PER_DAY = 50;
export const OTHER = 'other';

/** Rows per statement (5 parameters each at most; PostgreSQL allows 65,535). */
const ROWS_PER_STATEMENT = 5_000;

/** One day of a page, as the stats read it. */
export interface PageDayRow {
  day: string;
  views: number;
  uniques: number;
}

/** The views of one source value over a range. */
export interface PageSourceRow {
  kind: SourceKind;
  value: string;
  views: number;
}

/** The pages service's door to the analytics tables (pages.page_days, pages.page_sources). */
@Injectable()
export class PageAnalyticsRepository {
  constructor(private readonly em: EntityManager) {}

  /**
   * Adds one claimed batch, once (its id is recorded in the same transaction). Rows of pages deleted since
   * are skipped. A value beyond the day's top 50 of its kind goes to "other". Answers false when the batch
   * was applied already.
   */
  async apply(batch: ClaimedAnalytics): Promise<boolean> {
    return this.em.fork().transactional(async (tx) => {
      const claimed: unknown[] = await tx.execute(
        'insert into pages.analytics_flushes (batch_id) values (?) on conflict do nothing returning batch_id',
        [batch.batchId],
      );
      if (claimed.length === 0) return false;
      for (let i = 0; i < batch.days.length; i += ROWS_PER_STATEMENT) {
        const chunk = batch.days.slice(i, i + ROWS_PER_STATEMENT);
        await tx.execute(
          `insert into pages.page_days as d (page_id, day, views, uniques)
           select v.page_id, v.day, v.views, v.uniques
             from (values ${chunk.map(() => '(?::integer, ?::date, ?::integer, ?::integer)').join(', ')}) as v(page_id, day, views, uniques)
             join pages.pages p on p.id = v.page_id
           on conflict (page_id, day) do update
             set views = d.views + excluded.views, uniques = greatest(d.uniques, excluded.uniques)`,
          chunk.flatMap((d) => [d.pageId, d.day, d.views, d.uniques]),
        );
      }
      // HyperLogLog's estimate may pass the views by a hair: a day never has more visitors than views.
      if (batch.days.length > 0) {
        const ids = [...new Set(batch.days.map((d) => d.pageId))];
        await tx.execute(`update pages.page_days set uniques = views where uniques > views and page_id in (${ids.map(() => '?').join(', ')})`, ids);
      }
      const sources = await this.fold(tx, batch.sources);
      for (let i = 0; i < sources.length; i += ROWS_PER_STATEMENT) {
        const chunk = sources.slice(i, i + ROWS_PER_STATEMENT);
        await tx.execute(
          `insert into pages.page_sources as s (page_id, day, kind, value, views)
           select v.page_id, v.day, v.kind, v.value, v.views
             from (values ${chunk.map(() => '(?::integer, ?::date, ?, ?, ?::integer)').join(', ')}) as v(page_id, day, kind, value, views)
             join pages.pages p on p.id = v.page_id
           on conflict (page_id, day, kind, value) do update set views = s.views + excluded.views`,
          chunk.flatMap((s) => [s.pageId, s.day, s.kind, s.value, s.views]),
        );
      }
      await tx.execute("delete from pages.analytics_flushes where flushed_at < now() - interval '1 day'");
      return true;
    });
  }

  /**
   * The batch's source counts with the long tail folded: per page, day and kind, values already stored keep
   * their row; new ones take the free places among the top 50, largest first; the rest add up under "other".
   * One row per target (an upsert must not touch a row twice).
   */
  private async fold(tx: EntityManager, sources: SourceCount[]): Promise<SourceCount[]> {
    if (sources.length === 0) return [];
    const groups = new Map<string, SourceCount[]>();
    for (const s of sources) {
      const id = `${s.pageId}|${s.day}|${s.kind}`;
      const list = groups.get(id) ?? [];
      list.push(s);
      groups.set(id, list);
    }
    const pageDays = [...new Set(sources.map((s) => `${s.pageId}|${s.day}`))].map((id) => id.split('|'));
    const stored = new Map<string, Set<string>>();
    for (let i = 0; i < pageDays.length; i += ROWS_PER_STATEMENT) {
      const chunk = pageDays.slice(i, i + ROWS_PER_STATEMENT);
      const rows: { page_id: number; day: string; kind: string; value: string }[] = await tx.execute(
        `select s.page_id, to_char(s.day, 'YYYY-MM-DD') as day, s.kind, s.value
           from pages.page_sources s
           join (values ${chunk.map(() => '(?::integer, ?::date)').join(', ')}) as v(page_id, day) on v.page_id = s.page_id and v.day = s.day`,
        chunk.flat(),
      );
      for (const r of rows) {
        const id = `${r.page_id}|${r.day}|${r.kind}`;
        const set = stored.get(id) ?? new Set<string>();
        set.add(r.value);
        stored.set(id, set);
      }
    }
    const out: SourceCount[] = [];
    for (const [id, list] of groups) {
      const known = stored.get(id) ?? new Set<string>();
      let free = TOP_VALUES_PER_DAY - [...known].filter((v) => v !== OTHER).length;
      let other = 0;
      for (const s of [...list].sort((a, b) => b.views - a.views)) {
        if (s.value === OTHER || (!known.has(s.value) && free <= 0)) {
          other += s.views;
          continue;
        }
        if (!known.has(s.value)) free -= 1;
        out.push(s);
      }
      if (other > 0) out.push({ ...list[0], value: OTHER, views: other });
    }
    return out;
  }

  /** A page's days in [from, to] (UTC days, `YYYY-MM-DD`), oldest first; days without a view are absent. */
  async days(pageId: number, from: string, to: string): Promise<PageDayRow[]> {
    const rows: { day: string; views: number; uniques: number }[] = await this.em.execute(
      `select to_char(day, 'YYYY-MM-DD') as day, views, uniques from pages.page_days
        where page_id = ? and day between ?::date and ?::date order by day`,
      [pageId, from, to],
    );
    return rows.map((r) => ({ day: r.day, views: Number(r.views), uniques: Number(r.uniques) }));
  }

  /** A page's views per source value over [from, to], largest first. */
  async sources(pageId: number, from: string, to: string): Promise<PageSourceRow[]> {
    const rows: { kind: SourceKind; value: string; views: string }[] = await this.em.execute(
      `select kind, value, sum(views) as views from pages.page_sources
        where page_id = ? and day between ?::date and ?::date group by kind, value order by sum(views) desc, value`,
      [pageId, from, to],
    );
    return rows.map((r) => ({ kind: r.kind, value: r.value, views: Number(r.views) }));
  }

  /** The views per day over [from, to] of each page an owner has (the dashboard's sparklines); days without a view are absent. */
  async viewsPerDayOfOwner(ownerId: number, from: string, to: string): Promise<{ pageId: number; day: string; views: number }[]> {
    const rows: { page_id: number; day: string; views: number }[] = await this.em.execute(
      `select d.page_id, to_char(d.day, 'YYYY-MM-DD') as day, d.views from pages.page_days d
        join pages.pages p on p.id = d.page_id
        where p.user_id = ? and d.day between ?::date and ?::date order by d.day`,
      [ownerId, from, to],
    );
    return rows.map((r) => ({ pageId: Number(r.page_id), day: r.day, views: Number(r.views) }));
  }
}
