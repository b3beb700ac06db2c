import type { BeforeApplicationShutdown } from '@nestjs/common';
import { getLogger, leadBatchSize } from '@plink/observability';
import { isDatabaseUnavailableError } from '@plink/data';
import type { BatchLead, InsertedLead } from './leads.repository';

interface Pending {
  lead: BatchLead;
  key: string;
  resolve: (id: number | null) => void;
  reject: (err: unknown) => void;
}

export interface LeadBatcherOptions {
  /** Most leads in one statement. */
  maxBatch: number;
  /** Most statements in flight at once (each holds a pool connection while it runs). */
  maxInFlight: number;
}

/**
 * One statement at a time per process: measured at 50 connections (npm run bench, alternating runs), one in
 * flight writes ~24 leads per statement against ~16 with two, for 10-30 % more submissions a second and
 * less CPU per submission in the gateway, PostgreSQL and Redis alike; at 200 connections no difference.
 */
export const LEAD_BATCH_DEFAULTS: LeadBatcherOptions = { maxBatch: 200, maxInFlight: 1 };

/** The write a batch ends in (LeadsRepository.insertBatch, in production). */
export type BatchWrite = (leads: BatchLead[]) => Promise<InsertedLead[]>;

const keyOf = (pageId: number, emailLower: string) => `${pageId}\u0000${emailLower}`;

/**
 * Group commit for lead capture. The cost of storing a lead is mostly the statement and its commit (a
 * WAL flush), not the row, so submissions that arrive while earlier ones are being written wait for the
 * next statement and go into it together (up to {@link LeadBatcherOptions.maxBatch}):
 *
 * - no timer: a submission is written at the end of the event-loop turn it arrives in (setImmediate) if a
 *   statement slot is free, else as soon as one frees; the batch is whatever queued meanwhile, so batches
 *   are large under load and single rows when quiet ({@link LEAD_BATCH_DEFAULTS});
 * - each visitor's promise settles only when the statement holding its lead has committed: the id of the
 *   lead it inserted, or null when the page already had the address;
 * - the same page and address twice in one batch is one row; the first submission gets the id, the rest
 *   null (all of them are successes for the visitor);
 * - when a batch statement fails (it should not: input is validated before it gets here), each distinct
 *   lead is retried alone, so one bad row fails only its own submissions; a lead that fails alone rejects
 *   its submissions (a 5xx for the visitor, never a silent drop). The write is idempotent (ON CONFLICT DO
 *   NOTHING), so retrying a batch whose commit did happen stores nothing twice.
 * - when the connection breaks under a statement (a database restart), it may have committed before its
 *   answer was lost: the whole batch is written once more on a fresh connection, and leads it had stored come
 *   back as already stored, a success. If the database is still away, every submission of the batch fails
 *   with that error at once (a 503 the visitor may retry), not lead by lead.
 */
export class LeadBatcher implements BeforeApplicationShutdown {
  private readonly queue: Pending[] = [];
  private inFlight = 0;
  private scheduled = false;
  private readonly idle = new Set<() => void>();
  private readonly options: LeadBatcherOptions;

  constructor(
    private readonly write: BatchWrite,
    options: Partial<LeadBatcherOptions> = {},
  ) {
    this.options = { ...LEAD_BATCH_DEFAULTS, ...options };
  }

  /** Stores the lead with the next statement; resolves once committed: its id, or null for a repeat. */
  store(lead: BatchLead): Promise<number | null> {
    return new Promise<number | null>((resolve, reject) => {
      this.queue.push({ lead, key: keyOf(lead.pageId, lead.emailLower), resolve, reject });
      if (!this.scheduled) {
        this.scheduled = true;
        setImmediate(() => {
          this.scheduled = false;
          this.pump();
        });
      }
    });
  }

  /** Settles once nothing is queued or being written. */
  drained(): Promise<void> {
    if (this.queue.length === 0 && this.inFlight === 0) return Promise.resolve();
    return new Promise((resolve) => this.idle.add(resolve));
  }

  /** Before the database closes, the submissions already taken are written. */
  async beforeApplicationShutdown() {
    await this.drained();
  }

  private pump(): void {
    while (this.inFlight < this.options.maxInFlight && this.queue.length > 0) {
      const batch = this.queue.splice(0, this.options.maxBatch);
      this.inFlight += 1;
      void this.flush(batch).finally(() => {
        this.inFlight -= 1;
        this.pump();
        if (this.queue.length === 0 && this.inFlight === 0) {
          for (const resolve of this.idle) resolve();
          this.idle.clear();
        }
      });
    }
  }

  /** Writes one batch and settles each of its submissions. Never rejects. */
  private async flush(batch: Pending[]): Promise<void> {
    // One row per page and address; every submission of it waits on that row.
    const groups = new Map<string, Pending[]>();
    for (const item of batch) {
      const group = groups.get(item.key);
      if (group) group.push(item);
      else groups.set(item.key, [item]);
    }
    const all = [...groups.values()];
    try {
      await this.writeGroups(all);
    } catch (err) {
      if (isDatabaseUnavailableError(err)) {
        await this.writeGroups(all).catch((again: unknown) => {
          for (const item of batch) item.reject(again);
        });
        return;
      }
      if (all.length === 1) {
        for (const item of batch) item.reject(err);
        return;
      }
      getLogger().warn({ err, leads: all.length }, 'lead batch failed; writing its leads one by one');
      await Promise.all(
        all.map((group) =>
          this.writeGroups([group]).catch((e: unknown) => {
            for (const item of group) item.reject(e);
          }),
        ),
      );
    }
  }

  /** Writes one row per group; settles every submission of those groups (the first gets the id). */
  private async writeGroups(groups: Pending[][]): Promise<void> {
    const inserted = await this.write(groups.map((g) => g[0].lead));
    leadBatchSize.observe(groups.length);
    const ids = new Map(inserted.map((row) => [keyOf(row.pageId, row.emailLower), row.id]));
    for (const group of groups) {
      const id = ids.get(group[0].key) ?? null;
      group.forEach((item, i) => item.resolve(i === 0 ? id : null));
    }
  }
}
