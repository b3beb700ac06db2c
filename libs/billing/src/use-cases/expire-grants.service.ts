import { Injectable } from '@nestjs/common';
import { EntityManager } from '@mikro-orm/postgresql';
import { getLogger } from '@plink/platform';
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
    private readonly em: EntityManager,
    private readonly applyPlan: ApplyPlanService,
  ) {}

  /** Returns how many grants ended. `now` is the clock (a test passes its own). */
  async execute(now = new Date()): Promise<number> {
    const rows: { user_id: number }[] = await this.em.fork().execute(
      `select user_id from billing.accounts
        where source = 'operator' and is_premium and operator_expires_at is not null and operator_expires_at <= ?
        order by operator_expires_at limit ?`,
      [now, BATCH],
    );
    let ended = 0;
    for (const { user_id: userId } of rows) {
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
