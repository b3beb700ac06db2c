import { Injectable } from '@nestjs/common';
import { EntityManager, LockMode } from '@mikro-orm/postgresql';
import type { EventPayload } from '@plink/contracts';
import { getLogger } from '@plink/observability';
import { User } from '../users/user.entity';

/**
 * Keeps identity's copy of the plan billing decided ('plan.changed'), so sign-in, GET /api/user and the
 * account e-mails see it. Changes may arrive late or twice: one whose version is not newer than the
 * version applied last changes nothing. The other services hear of the change from billing directly.
 */
@Injectable()
export class ApplyPlanChangeService {
  constructor(private readonly em: EntityManager) {}

  async execute(change: EventPayload<'plan.changed'>): Promise<void> {
    const applied = await this.em.fork().transactional(async (tx) => {
      const user = await tx.findOne(User, { id: change.userId }, { lockMode: LockMode.PESSIMISTIC_WRITE });
      if (!user) return 'no-user';
      if (user.planVersion >= change.version) return 'stale';
      user.isPremium = change.isPremium;
      user.planStatus = change.planStatus;
      user.planPeriodEnd = change.periodEnd ? new Date(change.periodEnd) : null;
      user.stripeCustomerId = change.stripeCustomerId;
      user.stripeSubscriptionId = change.stripeSubscriptionId;
      user.planVersion = change.version;
      return 'applied';
    });
    getLogger().info({ userId: change.userId, isPremium: change.isPremium, planStatus: change.planStatus, version: change.version, result: applied }, 'plan change applied to user');
  }
}
