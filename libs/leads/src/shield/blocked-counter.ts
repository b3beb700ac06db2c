import { Injectable, OnModuleDestroy } from '@nestjs/common';
import { EntityManager } from '@mikro-orm/postgresql';
import { BLOCK_REASONS, type BlockReason } from '@plink/contracts';
import { getLogger } from '@plink/observability';

/** How often a process adds its counted refusals to the database. */
export const BLOCKED_FLUSH_INTERVAL_MS = 1_000;

/**
 * Counts refused submissions per page and reason without a write per refusal (a bot's flood must not cost a
 * statement each): each process adds them up in memory and, once a second, adds them to
 * `leads.blocked_submissions` (per page, reason and hour of the write) in one statement. A clean stop writes what is left; a crash loses at most
 * the last second. On a failed write the counts stay for the next try.
 */
@Injectable()
export class BlockedCounter implements OnModuleDestroy {
  private counts = new Map<string, number>();
  private timer?: NodeJS.Timeout;
  private flushing?: Promise<void>;
  private lastWarning = 0;

  constructor(private readonly em: EntityManager) {}

  count(pageId: number, reason: BlockReason): void {
    const key = `${pageId}:${reason}`;
    this.counts.set(key, (this.counts.get(key) ?? 0) + 1);
    if (!this.timer) {
      this.timer = setInterval(() => void this.flush(), BLOCKED_FLUSH_INTERVAL_MS);
      this.timer.unref();
    }
  }

  /** Writes the counted refusals now (tests, a clean stop). */
  flush(): Promise<void> {
    if (this.flushing) return this.flushing.then(() => this.flush());
    if (this.counts.size === 0) return Promise.resolve();
    const batch = this.counts;
    this.counts = new Map();
    this.flushing = this.write(batch)
      .catch((err: Error) => {
        for (const [key, n] of batch) this.counts.set(key, (this.counts.get(key) ?? 0) + n);
        if (Date.now() - this.lastWarning > 10_000) {
          this.lastWarning = Date.now();
          getLogger().warn({ err: { message: err.message } }, 'leads: could not write refused-submission counts, keeping them in memory');
        }
      })
      .finally(() => {
        this.flushing = undefined;
      });
    return this.flushing;
  }

  private async write(batch: Map<string, number>): Promise<void> {
    const rows = [...batch].map(([key, n]) => {
      const [pageId, reason] = key.split(':');
      return { pageId: Number(pageId), reason, n };
    });
    await this.em.fork().execute(
      `insert into leads.blocked_submissions as b (page_id, reason, hour, count)
       select page_id, reason, date_trunc('hour', now()), n from unnest(?::int[], ?::varchar[], ?::bigint[]) as u (page_id, reason, n)
       on conflict (page_id, reason, hour) do update set count = b.count + excluded.count`,
      [`{${rows.map((r) => r.pageId).join(',')}}`, `{${rows.map((r) => r.reason).join(',')}}`, `{${rows.map((r) => r.n).join(',')}}`],
    );
  }

  /** A page's refused submissions per reason, every hour's together. */
  async read(pageId: number): Promise<Record<BlockReason, number>> {
    const rows: { reason: string; count: string | number }[] = await this.em
      .fork()
      .execute('select reason, sum(count) as count from leads.blocked_submissions where page_id = ? group by reason', [pageId]);
    const counts = Object.fromEntries(BLOCK_REASONS.map((r) => [r, 0])) as Record<BlockReason, number>;
    for (const row of rows) if ((BLOCK_REASONS as readonly string[]).includes(row.reason)) counts[row.reason as BlockReason] = Number(row.count);
    return counts;
  }

  async onModuleDestroy() {
    if (this.timer) clearInterval(this.timer);
    this.timer = undefined;
    await this.flush();
  }
}
