import { Injectable } from '@nestjs/common';
import { getLogger } from '@plink/observability';
import { BillingAccountsRepository } from '../accounts/billing-accounts.repository';
import { ApplyPlanService } from './apply-plan.service';

/** Grants ended per pass; a longer backlog is taken by the next passes. */
const BATCH = 200;

/**
 * Ends the operator grants given with `--days` whose time is up (the repeatable 'billing.expire-grants'
 * job). Each goes through {@link ApplyPlanService} like any plan change (the user is told, the pages drop
 * their Pro features), and only if, under the row lock, it is still that expired grant: a grant the operator
 * renewed meanwhile stays.
 */
@Injectable()
export class ExpireGrantsService {
  constructor(
    private readonly accounts: BillingAccountsRepository,
    private readonly applyPlan: ApplyPlanService,
  ) {}

  /** Returns how many grants ended. `now` is the clock (a test passes its own). */
  async execute(now = new Date()): Promise<number> {
    const userIds = await this.accounts.findExpiredGrants(now, BATCH);
    let ended = 0;
    for (const userId of userIds) {
      const result = await this.applyPlan.applyPlan(
        userId,
        { status: 'canceled', source: 'operator' },
        {
          now,
          when: (account) =>
            account.source === 'operator' && account.isPremium && !!account.operatorExpiresAt && account.operatorExpiresAt <= now,
        },
      );
      if (result.applied) ended += 1;
    }
    if (ended > 0) getLogger().info({ ended }, 'operator grants expired');
    return ended;
  }
}
