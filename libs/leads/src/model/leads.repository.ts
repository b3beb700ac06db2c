import type { Readable } from 'node:stream';
import type { PoolClient } from 'pg';
import { Injectable, ServiceUnavailableException } from '@nestjs/common';
import type { QueryResult } from '@mikro-orm/core';
import { EntityManager } from '@mikro-orm/postgresql';
import { LeadMessages, type LeadChannel, type LeadStatus } from '@plink/contracts';
import { Outbox, type NewRowJobs } from '@plink/queue';
import { nativePoolOf } from '@plink/data';
import { LeanCopyToStream } from '../export/copy-out-stream';
import { leadsCopySql, neutraliseCell, type CsvOptions } from '../export/leads-csv';
import { COUNTER_SHARDS } from './page-counter.entity';
import type { VisitSource } from '@plink/http';
import type { LeadEvidence } from './lead-evidence';

export interface NewLead {
  pageId: number;
  email: string;
  consentAt: Date | null;
  /** The owner's plan version the capture read (see 'plan.changed'): which plan was in force for this lead. */
  planVersion: number;
}

/** One row of a batch written by {@link LeadsRepository.insertBatch}. */
export interface BatchLead extends NewLead {
  /** `email` lower-cased: the page's unique key with `pageId`. */
  emailLower: string;
  /** The jobs to record if the lead is new (Outbox.jobsForNewRow; null: none). */
  jobs: NewRowJobs | null;
  /** The proof of consent stored with the lead (absent: none recorded). */
  evidence?: LeadEvidence | null;
  /** Where the lead came from (absent: not known). */
  source?: VisitSource | null;
  /** How it reached the page (absent: not known). */
  channel?: LeadChannel | null;
}

/** A lead a batch inserted (its key, and the id it got). */
export interface InsertedLead {
  id: number;
  pageId: number;
  emailLower: string;
}

export interface LeadRow {
  id: number;
  email: string;
  createdAt: Date;
  consentAt: Date | null;
  status: LeadStatus;
}

interface RawLeadRow {
  id: number | string;
  email: string;
  created_at: Date | string;
  consent_at: Date | string | null;
  status: LeadStatus;
}

const toDate = (v: Date | string) => (v instanceof Date ? v : new Date(v));
const toLeadRow = (r: RawLeadRow): LeadRow => ({
  id: Number(r.id),
  email: r.email,
  createdAt: toDate(r.created_at),
  consentAt: r.consent_at === null ? null : toDate(r.consent_at),
  status: r.status,
});

const byKey = (a: BatchLead, b: BatchLead) =>
  a.pageId - b.pageId || (a.emailLower < b.emailLower ? -1 : a.emailLower > b.emailLower ? 1 : 0);

/** The leads service's only door to its tables (raw SQL where the hot path or a big page needs it). */
@Injectable()
export class LeadsRepository {
  /** The ORM's own `pg` pool (DATABASE_POOL_MAX connections, shared with every other query). */
  private readonly nativePool = nativePoolOf(() => this.em);
  /** Exports streaming now in this process (each holds a pool connection until its downloader is done). */
  private exportsRunning = 0;

  constructor(
    private readonly em: EntityManager,
    private readonly outbox: Outbox,
  ) {}

  /**
   * Many leads at once, in ONE statement (one round trip, one commit): every lead whose address is new to
   * its page is inserted, and only for those are the conversions counted (one counter shard per page of the
   * batch) and the jobs recorded (the outbox's CTE over `new_leads`, whose `jobs` column holds each lead's
   * own). All of it happens or none; the outbox wakes its relay once it has committed. Returns the leads it
   * inserted; a lead missing from the answer was already stored.
   *
   * A page and address given twice is written once (the first). Leads are written in (page, address)
   * order, so two batches that share addresses take the unique index's locks in the same order and never
   * deadlock. Runs on the ORM's own `pg` pool with real parameters (eighteen arrays, whatever the batch size).
   */
  async insertBatch(leads: BatchLead[]): Promise<InsertedLead[]> {
    if (leads.length === 0) return [];
    // Sorted, and one row per page and address (the first given), so each new lead gets its jobs once.
    const sorted = [...leads].sort(byKey).filter((l, i, all) => i === 0 || byKey(all[i - 1], l) !== 0);
    const rows = await this.outbox.writeWithJobs<{ id: number; page_id: number; email_lower: string }>({
      // A named (prepared) statement: parsed and planned once per connection. Measured on this statement
      // alone: 15 leads 1.4 → 0.8 ms, 1 lead 0.7 → 0.4 ms; the planning was half of a small batch's cost.
      name: 'leads_insert_batch',
      text: (recordJobs) => `with input as (
         select * from unnest($1::int[], $2::text[], $3::text[], $4::timestamptz[], $5::text[], $6::int[],
                              $7::boolean[], $8::text[], $9::text[], $10::inet[], $11::text[],
                              $12::text[], $13::text[], $14::text[], $15::text[], $16::text[], $17::text[], $18::text[], $19::text[]) with ordinality
           as t(page_id, email, email_lower, consent_at, jobs, plan_version,
                consent_shown, consent_version, privacy_url, signup_ip, signup_user_agent,
                referrer, ref, ref_source, utm_source, utm_medium, utm_campaign, device, channel, ord)
       ), inserted as (
         insert into leads.leads (page_id, email, email_lower, consent_at, plan_version,
                                  consent_shown, consent_version, privacy_url, signup_ip, signup_user_agent,
                                  referrer, ref, ref_source, utm_source, utm_medium, utm_campaign, device, channel)
         select page_id, email, email_lower, consent_at, plan_version,
                consent_shown, consent_version, privacy_url, signup_ip, signup_user_agent,
                referrer, ref, ref_source, utm_source, utm_medium, utm_campaign, device, channel from input order by ord
         on conflict (page_id, email_lower) do nothing
         returning id, page_id, email_lower
       ), counted as (
         insert into leads.page_counters (page_id, shard, conversions)
         select page_id, floor(random() * ${COUNTER_SHARDS})::smallint, count(*) from inserted group by page_id order by page_id
         on conflict (page_id, shard) do update set conversions = leads.page_counters.conversions + excluded.conversions
       ), new_leads as (
         select i.id, i.page_id, input.jobs::jsonb as jobs
           from inserted i join input on input.page_id = i.page_id and input.email_lower = i.email_lower
       ), ${recordJobs('new_leads', 'id', 'jobs')}
       select id, page_id, email_lower from inserted`,
      values: [
        sorted.map((l) => l.pageId),
        sorted.map((l) => l.email),
        sorted.map((l) => l.emailLower),
        sorted.map((l) => (l.consentAt ? l.consentAt.toISOString() : null)),
        sorted.map((l) => l.jobs),
        sorted.map((l) => l.planVersion),
        sorted.map((l) => l.evidence?.consentShown ?? null),
        sorted.map((l) => l.evidence?.consentVersion ?? null),
        sorted.map((l) => l.evidence?.privacyUrl ?? null),
        sorted.map((l) => l.evidence?.signupIp ?? null),
        sorted.map((l) => l.evidence?.signupUserAgent ?? null),
        sorted.map((l) => l.source?.referrer ?? null),
        sorted.map((l) => l.source?.ref ?? null),
        sorted.map((l) => l.source?.source ?? null),
        sorted.map((l) => l.source?.utmSource ?? null),
        sorted.map((l) => l.source?.utmMedium ?? null),
        sorted.map((l) => l.source?.utmCampaign ?? null),
        sorted.map((l) => l.source?.device ?? null),
        sorted.map((l) => l.channel ?? null),
      ],
    });
    return rows.map((r) => ({ id: Number(r.id), pageId: Number(r.page_id), emailLower: r.email_lower }));
  }

  /**
   * Leads with the dates they were taken on, and their conversions, in one statement: the demo seed's sample
   * leads (see LeadsDemo). No jobs: nobody is e-mailed a file nor sent to a webhook for them. An address the
   * page has already is skipped. Answers how many were inserted.
   */
  async insertDated(pageId: number, leads: { email: string; createdAt: Date; consentAt: Date | null }[], planVersion: number): Promise<number> {
    // The ORM's own pool, for real array parameters (the ORM's `execute` would spread an array into a list).
    const pool = await this.nativePool();
    const { rows } = await pool.query<{ inserted: number }>(
      `with inserted as (
         insert into leads.leads (page_id, email, email_lower, consent_at, plan_version, created_at)
         select $1, email, lower(email), consent_at, $2, created_at
           from unnest($3::text[], $4::timestamptz[], $5::timestamptz[]) as t(email, created_at, consent_at)
         on conflict (page_id, email_lower) do nothing
         returning 1
       ), counted as (
         insert into leads.page_counters (page_id, shard, conversions)
         select $1, 0, count(*) from inserted having count(*) > 0
         on conflict (page_id, shard) do update set conversions = leads.page_counters.conversions + excluded.conversions
       )
       select count(*)::int as inserted from inserted`,
      [pageId, planVersion, leads.map((l) => l.email), leads.map((l) => l.createdAt.toISOString()), leads.map((l) => l.consentAt?.toISOString() ?? null)],
    );
    return Number(rows[0]?.inserted ?? 0);
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

  /** Leads per page waiting for their e-mail confirmation (double opt-in; pages without any may be missing). */
  async pendingFor(pageIds: number[]): Promise<Map<number, number>> {
    const result = new Map<number, number>();
    if (pageIds.length === 0) return result;
    const rows: { page_id: number; pending: number }[] = await this.em.execute(
      `select page_id, count(*)::int as pending from leads.leads where status = 'pending' and page_id = any(?::int[]) group by page_id`,
      [`{${pageIds.map((id) => Math.trunc(id)).join(',')}}`],
    );
    for (const row of rows) result.set(Number(row.page_id), Number(row.pending));
    return result;
  }

  /**
   * Confirmed leads per page that came without a view Plink counted: added through the API or sent by the plain
   * HTML form (pages without any may be missing). The conversion rates leave them out.
   */
  async withoutVisitFor(pageIds: number[]): Promise<Map<number, number>> {
    const result = new Map<number, number>();
    if (pageIds.length === 0) return result;
    const rows: { page_id: number; leads: number }[] = await this.em.execute(
      `select page_id, count(*)::int as leads from leads.leads
        where status = 'confirmed' and channel in ('api', 'html') and page_id = any(?::int[]) group by page_id`,
      [`{${pageIds.map((id) => Math.trunc(id)).join(',')}}`],
    );
    for (const row of rows) result.set(Number(row.page_id), Number(row.leads));
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

  /** Leads with their dates (the webhook's `lead.created` event), by id, in one statement (a batch of deliveries). */
  async findManyWithDates(leadIds: number[]): Promise<Map<number, { id: number; pageId: number; email: string; createdAt: Date; consentAt: Date | null }>> {
    const found = new Map<number, { id: number; pageId: number; email: string; createdAt: Date; consentAt: Date | null }>();
    if (leadIds.length === 0) return found;
    const rows: { id: number; page_id: number; email: string; created_at: Date; consent_at: Date | null }[] = await this.em.execute(
      'select id, page_id, email, created_at, consent_at from leads.leads where id = any(?::int[])',
      [`{${leadIds.map((id) => Math.trunc(id)).join(',')}}`],
    );
    for (const row of rows) {
      found.set(Number(row.id), {
        id: Number(row.id),
        pageId: Number(row.page_id),
        email: row.email,
        createdAt: new Date(row.created_at),
        consentAt: row.consent_at ? new Date(row.consent_at) : null,
      });
    }
    return found;
  }

  /** The page's newest leads first. */
  async recent(pageId: number, limit: number): Promise<LeadRow[]> {
    const rows: RawLeadRow[] = await this.em.execute(
      `select id, email, created_at, consent_at, status from leads.leads where page_id = ?
        order by created_at desc, id desc limit ?`,
      [pageId, limit],
    );
    return rows.map(toLeadRow);
  }

  /** The page's highest lead id now (0: no leads). */
  async lastId(pageId: number, em: EntityManager = this.em): Promise<number> {
    const rows: { last: number | string | null }[] = await em.execute('select max(id) as last from leads.leads where page_id = ?', [pageId]);
    return Number(rows[0]?.last ?? 0);
  }

  /**
   * The page's leads as CSV text, written by PostgreSQL (`COPY … TO STDOUT`, see {@link leadsCopySql}) and
   * streamed as it comes: back-pressure reaches the database through the socket, so memory stays flat
   * whatever the page's size. One connection of the ORM's pool is checked out for the stream's life and
   * given back when the stream ends; on an error or when the stream is destroyed before its end (the
   * downloader went away), the connection is closed instead — it is in the middle of a COPY — and the pool
   * opens a new one when it needs it.
   *
   * A download lasts as long as its downloader reads, so exports may hold at most half the pool: one more
   * answers 503 'Too many lead exports are running right now…' at once, and slow downloads can never take
   * the connections sign-ups and the API need.
   */
  async exportCsv(pageId: number, pageSlug: string, options: CsvOptions = { signupIp: false }): Promise<Readable> {
    const pool = await this.nativePool();
    if (this.exportsRunning >= Math.max(1, Math.floor((pool.options.max ?? 10) / 2))) {
      throw new ServiceUnavailableException({ message: LeadMessages.exportsBusy });
    }
    this.exportsRunning += 1;
    let client: PoolClient;
    try {
      client = await pool.connect();
    } catch (err) {
      this.exportsRunning -= 1;
      throw err;
    }
    let released = false;
    const release = (err?: Error) => {
      if (released) return;
      released = true;
      this.exportsRunning -= 1;
      client.release(err);
    };
    try {
      const stream = client.query(new LeanCopyToStream(leadsCopySql(Math.trunc(pageId), client.escapeLiteral(neutraliseCell(pageSlug)), options)));
      stream.on('end', () => release());
      // Kept for the stream's whole life: the closed connection may still report its end to the query.
      stream.on('error', (err) => release(err));
      stream.on('close', () => release(new Error('lead export stopped before its end')));
      return stream;
    } catch (err) {
      release(err instanceof Error ? err : new Error(String(err)));
      throw err;
    }
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

  /**
   * Deletes these leads of the page (erasure; ids of other pages are not touched), in one transaction with
   * what follows from it: the page's conversions less its confirmed leads among them (one counter shard takes
   * the difference; the count is the shards' sum), and 'leads.deleted' for the notifications service, which
   * drops their webhook deliveries not yet made. Their confirmation links go with them (on delete cascade).
   * Answers the ids deleted.
   */
  async deleteLeads(pageId: number, ids: number[]): Promise<number[]> {
    return this.em.fork().transactional(async (tx) => {
      const gone: { id: number; status: LeadStatus }[] = await tx.execute(
        'delete from leads.leads where page_id = ? and id = any(?::int[]) returning id, status',
        [pageId, `{${ids.map((id) => Math.trunc(id)).join(',')}}`],
      );
      const confirmed = gone.filter((row) => row.status === 'confirmed').length;
      if (confirmed > 0) {
        await tx.execute(
          `insert into leads.page_counters (page_id, shard, conversions) values (?, 0, ?)
           on conflict (page_id, shard) do update set conversions = leads.page_counters.conversions + excluded.conversions`,
          [pageId, -confirmed],
        );
      }
      const leadIds = gone.map((row) => Number(row.id)).sort((a, b) => a - b);
      if (leadIds.length > 0) this.outbox.publish(tx, 'leads.deleted', { v: 1, pageId, leadIds });
      return leadIds;
    });
  }

  async deleteCounter(pageId: number): Promise<void> {
    await this.em.execute('delete from leads.page_counters where page_id = ?', [pageId]);
    await this.em.execute('delete from leads.blocked_submissions where page_id = ?', [pageId]);
    await this.em.execute('delete from leads.accepted_submissions where page_id = ?', [pageId]);
    await this.em.execute('delete from leads.page_protection where page_id = ?', [pageId]);
  }
}
