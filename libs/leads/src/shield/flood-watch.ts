import { Inject, Injectable, OnModuleDestroy } from '@nestjs/common';
import { EntityManager } from '@mikro-orm/postgresql';
import { APP_CONFIG, type AppConfig } from '@plink/config';
import { Outbox } from '@plink/queue';
import { getLogger } from '@plink/observability';
import { LeadClock } from '../model/lead-clock';
import { BlockedCounter } from './blocked-counter';

/** How often a process adds its counted sign-ups to the database and checks the pages that had any. */
export const FLOOD_FLUSH_INTERVAL_MS = 1_000;
/** A page's rule is checked at most this often per process. */
export const FLOOD_CHECK_INTERVAL_MS = 2_000;
/** How long a page stays on confirm-by-e-mail once switched. */
export const UNDER_ATTACK_MS = 24 * 3_600_000;
/** After its owner ended the switch by hand, the rule leaves the page alone this long. */
export const ENDED_GRACE_MS = 3_600_000;
/** The factor over the page's own normal rate (accepted: its median hour of 7 days; refused: its accepted ones). */
const OVER_NORMAL = 10;

interface RuleRow {
  acc_cur: string | number;
  acc_prev: string | number;
  ref_cur: string | number;
  ref_prev: string | number;
  median: string | number | null;
  until: Date | string | null;
  ended_at: Date | string | null;
  owner_id: number | null;
  title: string | null;
}

/**
 * The "under attack" switch (see docs/security.md): a page receiving accepted sign-ups far above its own
 * normal rate (over LEAD_FLOOD_PER_HOUR in the last hour and over 10× its median hour of the last 7 days), or
 * refused ones over LEAD_REFUSED_PER_HOUR in the last hour and over 10× its accepted ones, takes sign-ups as a
 * double opt-in page does for 24 hours, and its owner is e-mailed once.
 *
 * Nothing heavy runs per submission: each process counts the page's accepted sign-ups in memory and, once a
 * second, adds them to `leads.accepted_submissions` (per page and hour) in one statement; then it checks the
 * rule for the pages that had sign-ups or refusals since, each at most once per 2 seconds (one statement per
 * page). "The last hour" is the current hour's count plus the previous hour's weighted by the part of it still
 * inside the last 60 minutes. Whether a page is switched is answered from memory (what the last check read).
 */
@Injectable()
export class FloodWatch implements OnModuleDestroy {
  private accepted = new Map<number, number>();
  private touched = new Set<number>();
  private lastCheck = new Map<number, number>();
  private until = new Map<number, number>();
  private timer?: NodeJS.Timeout;
  private running?: Promise<void>;
  private lastWarning = 0;

  constructor(
    private readonly em: EntityManager,
    private readonly outbox: Outbox,
    private readonly clock: LeadClock,
    private readonly blocked: BlockedCounter,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  private get on(): boolean {
    return this.config.leadFloodPerHour > 0 || this.config.leadRefusedPerHour > 0;
  }

  /** A submission to the page was accepted (it passed the shield and the domain check). */
  countAccepted(pageId: number): void {
    if (!this.on) return;
    this.accepted.set(pageId, (this.accepted.get(pageId) ?? 0) + 1);
    this.touch(pageId);
  }

  /** A submission to the page was refused (BlockedCounter counts it): its rule is checked at the next tick. */
  countRefused(pageId: number): void {
    if (!this.on) return;
    this.touch(pageId);
  }

  /** Whether the page takes sign-ups as a double opt-in page does (as this process last read it). */
  underAttack(pageId: number): boolean {
    const until = this.until.get(pageId);
    return until !== undefined && until > this.clock.now().getTime();
  }

  /** The page's switch as stored: until when it is on, or null. */
  async state(pageId: number): Promise<Date | null> {
    const rows: { under_attack_until: Date | string | null }[] = await this.em
      .fork()
      .execute('select under_attack_until from leads.page_protection where page_id = ?', [pageId]);
    const until = rows[0]?.under_attack_until ? new Date(rows[0].under_attack_until) : null;
    return until && until.getTime() > this.clock.now().getTime() ? until : null;
  }

  /** Its owner ends the switch: sign-ups follow the page's own setting again, and the rule waits an hour. */
  async end(pageId: number): Promise<void> {
    const now = this.clock.now();
    await this.em.fork().execute(
      `insert into leads.page_protection (page_id, under_attack_until, ended_at) values (?, null, ?)
       on conflict (page_id) do update set under_attack_until = null, ended_at = excluded.ended_at`,
      [pageId, now],
    );
    this.until.delete(pageId);
  }

  /** Writes the counted sign-ups and checks the touched pages now (tests, a clean stop). */
  tick(): Promise<void> {
    if (this.running) return this.running.then(() => this.tick());
    this.running = this.run().finally(() => {
      this.running = undefined;
    });
    return this.running;
  }

  private touch(pageId: number): void {
    this.touched.add(pageId);
    if (!this.timer) {
      this.timer = setInterval(() => void this.tick(), FLOOD_FLUSH_INTERVAL_MS);
      this.timer.unref();
    }
  }

  private async run(): Promise<void> {
    try {
      // The refusals counted so far are in the table before the rule reads it.
      await Promise.all([this.flush(), this.blocked.flush()]);
      const now = this.clock.now().getTime();
      for (const pageId of [...this.touched]) {
        if (now - (this.lastCheck.get(pageId) ?? 0) < FLOOD_CHECK_INTERVAL_MS) continue;
        this.touched.delete(pageId);
        this.lastCheck.set(pageId, now);
        await this.check(pageId);
      }
      // Only the pages checked within the interval need their time kept.
      for (const [pageId, at] of this.lastCheck) if (now - at >= FLOOD_CHECK_INTERVAL_MS && !this.touched.has(pageId)) this.lastCheck.delete(pageId);
    } catch (err) {
      if (Date.now() - this.lastWarning > 10_000) {
        this.lastWarning = Date.now();
        getLogger().warn({ err: { message: (err as Error).message } }, 'leads: could not check pages for bot sign-ups, trying again');
      }
    }
  }

  private async flush(): Promise<void> {
    if (this.accepted.size === 0) return;
    const batch = this.accepted;
    this.accepted = new Map();
    try {
      await this.em.fork().execute(
        `insert into leads.accepted_submissions as a (page_id, hour, count)
         select page_id, date_trunc('hour', cast(? as timestamptz)), n from unnest(?::int[], ?::bigint[]) as u (page_id, n)
         on conflict (page_id, hour) do update set count = a.count + excluded.count`,
        [this.clock.now(), `{${[...batch.keys()].join(',')}}`, `{${[...batch.values()].join(',')}}`],
      );
    } catch (err) {
      for (const [pageId, n] of batch) this.accepted.set(pageId, (this.accepted.get(pageId) ?? 0) + n);
      throw err;
    }
  }

  /** Reads the page's counts and switch in one statement; switches it (and records the owner's e-mail) when the rule says so. */
  private async check(pageId: number): Promise<void> {
    const now = this.clock.now();
    const em = this.em.fork();
    const rows: RuleRow[] = await em.execute(
      `with h as (select date_trunc('hour', cast(? as timestamptz)) as cur)
       select
         coalesce((select a.count from leads.accepted_submissions a, h where a.page_id = ? and a.hour = h.cur), 0) as acc_cur,
         coalesce((select a.count from leads.accepted_submissions a, h where a.page_id = ? and a.hour = h.cur - interval '1 hour'), 0) as acc_prev,
         coalesce((select sum(b.count) from leads.blocked_submissions b, h where b.page_id = ? and b.hour = h.cur), 0) as ref_cur,
         coalesce((select sum(b.count) from leads.blocked_submissions b, h where b.page_id = ? and b.hour = h.cur - interval '1 hour'), 0) as ref_prev,
         (select percentile_cont(0.5) within group (order by coalesce(a.count, 0))
            from h, generate_series(h.cur - interval '168 hours', h.cur - interval '1 hour', interval '1 hour') as s (hour)
            left join leads.accepted_submissions a on a.page_id = ? and a.hour = s.hour) as median,
         p.under_attack_until as until, p.ended_at, f.owner_id, f.public ->> 'title' as title
       from (select 1) as one
       left join leads.page_protection p on p.page_id = ?
       left join leads.page_facts f on f.page_id = ?`,
      [now, pageId, pageId, pageId, pageId, pageId, pageId, pageId],
    );
    const row = rows[0];
    const until = row.until ? new Date(row.until).getTime() : 0;
    if (until > now.getTime()) {
      this.until.set(pageId, until);
      return;
    }
    this.until.delete(pageId);
    if (row.ended_at && new Date(row.ended_at).getTime() > now.getTime() - ENDED_GRACE_MS) return;
    // The previous hour counts for the part of it still within the last 60 minutes.
    const inPrev = 1 - (now.getTime() % 3_600_000) / 3_600_000;
    const accepted = Number(row.acc_cur) + Number(row.acc_prev) * inPrev;
    const refused = Number(row.ref_cur) + Number(row.ref_prev) * inPrev;
    const { leadFloodPerHour: floodAt, leadRefusedPerHour: refusedAt } = this.config;
    const flood = floodAt > 0 && accepted > floodAt && accepted > OVER_NORMAL * Number(row.median ?? 0);
    const refusedFlood = refusedAt > 0 && refused > refusedAt && refused > OVER_NORMAL * accepted;
    if (!flood && !refusedFlood) return;
    await this.switchOn(pageId, row, now, flood ? 'accepted' : 'refused');
  }

  /** Switches the page for 24 hours and records its owner's e-mail, together; a switch made meanwhile by another process wins. */
  private async switchOn(pageId: number, row: RuleRow, now: Date, why: 'accepted' | 'refused'): Promise<void> {
    const until = new Date(now.getTime() + UNDER_ATTACK_MS);
    await this.em.transactional(async (tx) => {
      const switched: { page_id: number }[] = await tx.execute(
        `insert into leads.page_protection as p (page_id, under_attack_until) values (?, ?)
         on conflict (page_id) do update set under_attack_until = excluded.under_attack_until
         where p.under_attack_until is null or p.under_attack_until <= ?
         returning p.page_id`,
        [pageId, until, now],
      );
      if (switched.length === 0 || row.owner_id === null) return;
      this.outbox.record(tx, 'identity.account-email', {
        v: 1,
        userId: Number(row.owner_id),
        email: 'email.page-under-attack',
        content: { page: { id: pageId, title: row.title ?? '' }, until: until.toISOString() },
      });
    });
    getLogger().warn({ pageId, why }, 'leads: page under attack, visitors confirm by e-mail for 24 hours');
    this.until.set(pageId, until.getTime());
  }

  async onModuleDestroy() {
    if (this.timer) clearInterval(this.timer);
    this.timer = undefined;
    await this.tick();
  }
}
