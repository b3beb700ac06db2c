import { Injectable } from '@nestjs/common';
import { EntityManager } from '@mikro-orm/postgresql';
import type { QueryResult } from '@mikro-orm/core';
import { getLogger } from '@plink/observability';
import { LeadClock } from '../model/lead-clock';
import type { SubmissionPage } from '../page-facts/page-facts.repository';
import { DoubleOptInService } from './double-opt-in.service';
import { EXPIRE_AFTER_MS, REMIND_AFTER_MS } from './opt-in-rules';

/** Reminders recorded per transaction (each its own token and e-mail job). */
const BATCH = 200;

/**
 * The 'leads.opt-in-sweep' job (every 15 minutes): one reminder e-mail, with a fresh link, to each visitor whose
 * sign-up has been pending for 48 hours, and the removal of sign-ups still pending after 7 days (their links stop
 * working; they were never counted, so no count changes).
 */
@Injectable()
export class OptInSweepService {
  constructor(
    private readonly em: EntityManager,
    private readonly optIn: DoubleOptInService,
    private readonly clock: LeadClock,
  ) {}

  /** Answers how many visitors were reminded and how many pending leads were removed. */
  async execute(now = this.clock.now()): Promise<{ reminded: number; expired: number }> {
    const remindBefore = new Date(now.getTime() - REMIND_AFTER_MS);
    const expireBefore = new Date(now.getTime() - EXPIRE_AFTER_MS);
    const pages = new Map<number, SubmissionPage | null>();
    let reminded = 0;
    for (;;) {
      const count = await this.em.fork().transactional(async (tx) => {
        const due: { id: number; page_id: number; email: string }[] = await tx.execute(
          `update leads.leads set reminded_at = ?
            where id in (select id from leads.leads
                          where status = 'pending' and reminded_at is null and created_at <= ? and created_at > ?
                          order by created_at limit ? for update skip locked)
            returning id, page_id, email`,
          [now, remindBefore, expireBefore, BATCH],
        );
        for (const lead of due) {
          const pageId = Number(lead.page_id);
          if (!pages.has(pageId)) pages.set(pageId, await this.optIn.pageOf(tx, pageId));
          const page = pages.get(pageId);
          // A deleted page's leads go with it ('leads.delete-for-page'); nobody is reminded of it meanwhile.
          if (page) await this.optIn.recordConfirmation(tx, page, Number(lead.id), lead.email, true, now);
        }
        return due.length;
      });
      reminded += count;
      if (count < BATCH) break;
    }
    const removed: QueryResult = await this.em
      .fork()
      .execute(`delete from leads.leads where status = 'pending' and created_at <= ?`, [expireBefore], 'run');
    const expired = removed.affectedRows;
    if (reminded > 0 || expired > 0) getLogger().info({ reminded, expired }, 'double opt-in: reminders sent, expired sign-ups removed');
    return { reminded, expired };
  }
}
