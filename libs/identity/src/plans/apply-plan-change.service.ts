import { Injectable } from '@nestjs/common';
import { EntityManager, LockMode } from '@mikro-orm/postgresql';
import type { JobPayload } from '@plink/contracts';
import { Outbox, getLogger } from '@plink/platform';
import { User } from '../users/user.entity';

/**
 * Copies a plan change that billing decided onto the user ('identity.plan-changed'), so sign-in, GET
 * /api/user and the plan rules of pages see it. Changes may arrive out of order (retries): one older than
 * the change applied last is ignored. In the same transaction it records 'pages.owner-plan-changed' with the owner as
 * identity now has them (username, plan, when it changed): the pages service keeps its own copy of that,
 * pauses or un-pauses the owner's pages and drops them from every visitor cache.
 */
@Injectable()
export class ApplyPlanChangeService {
  constructor(
    private readonly em: EntityManager,
    private readonly outbox: Outbox,
  ) {}

  async execute(change: JobPayload<'identity.plan-changed'>): Promise<void> {
    const changedAt = new Date(change.changedAt);
    const applied = await this.em.fork().transactional(async (tx) => {
      const user = await tx.findOne(User, { id: change.userId }, { lockMode: LockMode.PESSIMISTIC_WRITE });
      if (!user) return 'no-user';
      if (user.planChangedAt && user.planChangedAt.getTime() > changedAt.getTime()) return 'stale';
      user.isPremium = change.isPremium;
      user.planStatus = change.planStatus;
      user.planPeriodEnd = change.periodEnd ? new Date(change.periodEnd) : null;
      user.stripeCustomerId = change.stripeCustomerId;
      user.stripeSubscriptionId = change.stripeSubscriptionId;
      user.planChangedAt = changedAt;
      this.outbox.record(tx, 'pages.owner-plan-changed', {
        v: 1,
        userId: user.id,
        username: user.username,
        isPremium: user.isPremium,
        changedAt: changedAt.toISOString(),
      });
      return 'applied';
    });
    getLogger().info({ userId: change.userId, isPremium: change.isPremium, planStatus: change.planStatus, result: applied }, 'plan change applied to user');
  }
}
