import { Injectable } from '@nestjs/common';
import { EntityManager } from '@mikro-orm/postgresql';
import { Outbox } from '@plink/queue';
import { getLogger } from '@plink/observability';
import { BillingAccountsRepository } from '../accounts/billing-accounts.repository';
import { LEAD_REMOVAL_DAYS, LEAD_REMOVAL_WARNING_DAYS, leadRemovalAtOf, leadRemovalStep } from '../plans/plan-rules';

/** Accounts looked at per pass; a longer backlog is taken by the next passes. */
const BATCH = 200;

export interface LeadRemovalPass {
  /** Users the warning e-mail was recorded for. */
  warned: number[];
  /** Users whose paused pages' leads were handed to the pages service for removal. */
  removed: number[];
}

/**
 * A paused page's leads (e-mail addresses) are removed 30 days after a downgrade. The repeatable 'billing.lead-removal'
 * job walks the downgraded accounts ({@link leadRemovalStep}): a week before the date it records the
 * warning ('pages.lead-removal-warning', once: the pages service drops it when the user has no paused page
 * left, else has identity address the e-mail), and on the date it records 'pages.remove-paused-leads'
 * (once): billing does not know the pages, the pages service does and has the leads service remove the
 * leads of the paused ones. Each step is decided again under the account's row lock, the lock every plan
 * change takes, so an upgrade (which clears `downgraded_at`) either comes first and cancels it, or after.
 */
@Injectable()
export class LeadRemovalService {
  constructor(
    private readonly em: EntityManager,
    private readonly accounts: BillingAccountsRepository,
    private readonly outbox: Outbox,
  ) {}

  /** `now` is the clock (a test passes its own). */
  async execute(now = new Date()): Promise<LeadRemovalPass> {
    // Only accounts whose warning can be due: downgraded at least (30 − 7) days ago.
    const earliest = new Date(now.getTime() - (LEAD_REMOVAL_DAYS - LEAD_REMOVAL_WARNING_DAYS) * 86_400_000);
    const userIds = await this.accounts.findLeadRemovalCandidates(earliest, BATCH);
    const pass: LeadRemovalPass = { warned: [], removed: [] };
    for (const userId of userIds) {
      const step = await this.em.fork().transactional(async (tx) => {
        const account = await this.accounts.lockIfExists(tx, userId);
        const decided = account ? leadRemovalStep(account, now) : null;
        if (!account || !decided) return null;
        if (decided === 'warn') {
          account.leadRemovalWarnedAt = now;
          const removalAt = leadRemovalAtOf(account)!;
          // The pages service knows whether the user still has paused pages; it has identity address the warning.
          this.outbox.record(tx, 'pages.lead-removal-warning', { v: 1, userId, removalAt: removalAt.toISOString() });
        } else {
          account.leadsRemovedAt = now;
          this.outbox.record(tx, 'pages.remove-paused-leads', { v: 1, userId });
        }
        return decided;
      });
      if (step === 'warn') pass.warned.push(userId);
      if (step === 'remove') pass.removed.push(userId);
    }
    if (pass.warned.length + pass.removed.length > 0) {
      getLogger().info({ warned: pass.warned.length, removed: pass.removed.length }, 'lead removal after downgrades');
    }
    return pass;
  }
}
