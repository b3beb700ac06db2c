import { Injectable } from '@nestjs/common';
import type { QueryResult } from '@mikro-orm/core';
import { EntityManager } from '@mikro-orm/postgresql';
import { COUNTER_SHARDS } from './page-counter.entity';

export interface NewLead {
  pageId: number;
  email: string;
  consentAt: Date | null;
}

export interface LeadRow {
  id: number;
  email: string;
  createdAt: Date;
  consentAt: Date | null;
}

interface RawLeadRow {
  id: number | string;
  email: string;
  created_at: Date | string;
  consent_at: Date | string | null;
}

const toDate = (v: Date | string) => (v instanceof Date ? v : new Date(v));
const toLeadRow = (r: RawLeadRow): LeadRow => ({
  id: Number(r.id),
  email: r.email,
  createdAt: toDate(r.created_at),
  consentAt: r.consent_at === null ? null : toDate(r.consent_at),
});

/** The leads service's only door to its tables (raw SQL where the hot path or a big page needs it). */
@Injectable()
export class LeadsRepository {
  constructor(private readonly em: EntityManager) {}

  /**
   * Inserts the lead unless the page already has this address (any case) and, only when it was
   * inserted, counts the conversion and records `jobs` (outbox rows from Outbox.rowsFromStatement):
   * one statement, so all of it happens or none. Returns the new lead's id, or null for a repeat.
   */
  async insertAndCount(em: EntityManager, lead: NewLead, jobs?: { sql: string; params: unknown[] }): Promise<number | null> {
    const rows: { id: number }[] = await em.execute(
      `with inserted as (
         insert into leads.leads (page_id, email, email_lower, consent_at) values (?, ?, ?, ?)
         on conflict (page_id, email_lower) do nothing
         returning id, page_id
       ), counted as (
         insert into leads.page_counters (page_id, shard, conversions)
         select page_id, floor(random() * ${COUNTER_SHARDS})::smallint, 1 from inserted
         on conflict (page_id, shard) do update set conversions = leads.page_counters.conversions + 1
       )${jobs ? `, jobs as (${jobs.sql})` : ''}
       select id from inserted`,
      [lead.pageId, lead.email, lead.email.toLowerCase(), lead.consentAt, ...(jobs?.params ?? [])],
    );
    return rows.length > 0 ? Number(rows[0].id) : null;
  }

  async conversionsFor(pageIds: number[]): Promise<Map<number, number>> {
    const result = new Map<number, number>(pageIds.map((id) => [id, 0]));
    if (pageIds.length === 0) return result;
    const rows: { page_id: number; conversions: number }[] = await this.em.execute(
      'select page_id, sum(conversions)::int as conversions from leads.page_counters where page_id = any(?::int[]) group by page_id',
      // One array parameter (a PostgreSQL array literal of integers), however many pages there are.
      [`{${pageIds.map((id) => Math.trunc(id)).join(',')}}`],
    );
    for (const row of rows) result.set(Number(row.page_id), Number(row.conversions));
    return result;
  }

  async conversions(pageId: number): Promise<number> {
    return (await this.conversionsFor([pageId])).get(pageId) ?? 0;
  }

  async findById(leadId: number): Promise<{ id: number; pageId: number; email: string } | null> {
    const rows: { id: number; page_id: number; email: string }[] = await this.em.execute(
      'select id, page_id, email from leads.leads where id = ?',
      [leadId],
    );
    const row = rows[0];
    return row ? { id: Number(row.id), pageId: Number(row.page_id), email: row.email } : null;
  }

  /** The page's newest leads first. */
  async recent(pageId: number, limit: number): Promise<LeadRow[]> {
    const rows: RawLeadRow[] = await this.em.execute(
      `select id, email, created_at, consent_at from leads.leads where page_id = ?
        order by created_at desc, id desc limit ?`,
      [pageId, limit],
    );
    return rows.map(toLeadRow);
  }

  /** The page's highest lead id now (an export stops there, not chasing leads that arrive meanwhile). */
  async lastId(pageId: number, em: EntityManager = this.em): Promise<number> {
    const rows: { last: number | string | null }[] = await em.execute('select max(id) as last from leads.leads where page_id = ?', [pageId]);
    return Number(rows[0]?.last ?? 0);
  }

  /** One keyset page of the page's leads in id order: ids in (afterId, upToId]. */
  async batchAfter(pageId: number, afterId: number, upToId: number, limit: number, em: EntityManager = this.em): Promise<LeadRow[]> {
    const rows: RawLeadRow[] = await em.execute(
      `select id, email, created_at, consent_at from leads.leads where page_id = ? and id > ? and id <= ?
        order by id limit ?`,
      [pageId, afterId, upToId, limit],
    );
    return rows.map(toLeadRow);
  }

  /** Deletes up to `limit` of the page's leads; returns how many went. */
  async deleteBatch(pageId: number, limit: number): Promise<number> {
    const result: QueryResult = await this.em.execute(
      'delete from leads.leads where id in (select id from leads.leads where page_id = ? limit ?)',
      [pageId, limit],
      'run',
    );
    return result.affectedRows;
  }

  async deleteCounter(pageId: number): Promise<void> {
    await this.em.execute('delete from leads.page_counters where page_id = ?', [pageId]);
  }
}
