import { Injectable } from '@nestjs/common';
import { EntityManager } from '@mikro-orm/postgresql';
import { LEADS_PAGE_SIZE, leadSourceLabel, type LeadListItemDto, type LeadStatus } from '@plink/contracts';

/** The lead columns a breakdown groups by, per kind of source (as the pages service names the kinds). */
const KIND_COLUMNS = { referrer: 'referrer', utm_source: 'utm_source', utm_medium: 'utm_medium', utm_campaign: 'utm_campaign', device: 'device' } as const;
export type LeadSourceKind = keyof typeof KIND_COLUMNS;

interface ListRow {
  id: number;
  email: string;
  created_at: Date;
  status: LeadStatus;
  referrer: string | null;
  ref: string | null;
  ref_source: string | null;
  utm_source: string | null;
  utm_medium: string | null;
  utm_campaign: string | null;
  device: string | null;
}

/** The leads service's reads for the stats' series, breakdowns and the paginated leads list. */
@Injectable()
export class LeadAnalyticsRepository {
  constructor(private readonly em: EntityManager) {}

  /** Confirmed leads (conversions) per UTC day of sign-up in [from, to]; a double opt-in lead still pending is not one. */
  async perDay(pageId: number, from: string, to: string): Promise<Map<string, number>> {
    const rows: { day: string; leads: string }[] = await this.em.execute(
      `select to_char((created_at at time zone 'UTC')::date, 'YYYY-MM-DD') as day, count(*) as leads
         from leads.leads
        where page_id = ? and status = 'confirmed' and created_at >= (?::date)::timestamp at time zone 'UTC' and created_at < ((?::date) + 1)::timestamp at time zone 'UTC'
        group by 1`,
      [pageId, from, to],
    );
    return new Map(rows.map((r) => [r.day, Number(r.leads)]));
  }

  /**
   * Confirmed leads in [from, to] (or ever, without a range) that came without a view Plink counted, per
   * channel: added through the API and sent by the plain-HTML form on other sites (no conversion rate counts
   * them). Leads taken before the channel was kept (null) came with the visits, as they were counted then.
   */
  async withoutVisit(pageId: number, range?: { from: string; to: string }): Promise<{ api: number; html: number }> {
    const within = range ? `and created_at >= (?::date)::timestamp at time zone 'UTC' and created_at < ((?::date) + 1)::timestamp at time zone 'UTC'` : '';
    const rows: { api: string; html: string }[] = await this.em.execute(
      `select count(*) filter (where channel = 'api') as api, count(*) filter (where channel = 'html') as html
         from leads.leads
        where page_id = ? and status = 'confirmed' and channel in ('api', 'html') ${within}`,
      range ? [pageId, range.from, range.to] : [pageId],
    );
    return { api: Number(rows[0]?.api ?? 0), html: Number(rows[0]?.html ?? 0) };
  }

  /** Leads per value of each source kind in [from, to] (leads without the value, or without a counted visit, are not counted). */
  async perSource(pageId: number, from: string, to: string): Promise<{ kind: LeadSourceKind; value: string; leads: number }[]> {
    const parts = Object.entries(KIND_COLUMNS).map(([kind, column]) => `select '${kind}' as kind, ${column} as value from range where ${column} is not null`);
    const rows: { kind: LeadSourceKind; value: string; leads: string }[] = await this.em.execute(
      `with range as (
         select referrer, utm_source, utm_medium, utm_campaign, device from leads.leads
          where page_id = ? and status = 'confirmed' and (channel is null or channel in ('page', 'embed'))
            and created_at >= (?::date)::timestamp at time zone 'UTC' and created_at < ((?::date) + 1)::timestamp at time zone 'UTC'
       )
       select kind, value, count(*) as leads from (${parts.join(' union all ')}) s group by kind, value`,
      [pageId, from, to],
    );
    return rows.map((r) => ({ kind: r.kind, value: r.value, leads: Number(r.leads) }));
  }

  /** One page of the page's leads, newest first, with their sources; `search`: part of the e-mail (any case). */
  async list(pageId: number, page: number, search: string | undefined): Promise<{ leads: LeadListItemDto[]; total: number }> {
    const like = search ? `%${search.toLowerCase().replace(/[\\%_]/g, (c) => `\\${c}`)}%` : null;
    const where = `page_id = ?${like ? ' and email_lower like ?' : ''}`;
    const params = like ? [pageId, like] : [pageId];
    const [rows, count] = await Promise.all([
      this.em.execute<ListRow[]>(
        `select id, email, created_at, status, referrer, ref, ref_source, utm_source, utm_medium, utm_campaign, device
           from leads.leads where ${where} order by id desc limit ? offset ?`,
        [...params, LEADS_PAGE_SIZE, (page - 1) * LEADS_PAGE_SIZE],
      ),
      this.em.execute<{ total: string }[]>(`select count(*) as total from leads.leads where ${where}`, params),
    ]);
    return {
      total: Number(count[0]?.total ?? 0),
      leads: rows.map((r) => {
        const source = { referrer: r.referrer, ref: r.ref, source: r.ref_source, utmSource: r.utm_source, utmMedium: r.utm_medium, utmCampaign: r.utm_campaign, device: r.device };
        return { id: Number(r.id), email: r.email, createdAt: new Date(r.created_at).toISOString(), status: r.status, ...source, sourceLabel: leadSourceLabel(source) };
      }),
    };
  }
}
