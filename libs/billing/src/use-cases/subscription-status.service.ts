import { Injectable } from '@nestjs/common';
import type { SubscriptionStatusResponse } from '@plink/contracts';
import { decidePremium } from '../plans/plan-rules';
import { ApplyPlanService } from './apply-plan.service';
import { ReadPlanService } from './read-plan.service';

/**
 * The caller's plan as billing stores it (check-subscription-status, and reset-subscription-status, which
 * touches only the caller's own plan). A plan that ran out since it was stored (an operator grant past its
 * end, not yet reached by the expiry job) is ended now, and `updated` says so. With a payment provider, the
 * subscription is re-read from it here (next release).
 */
@Injectable()
export class SubscriptionStatusService {
  constructor(
    private readonly plans: ReadPlanService,
    private readonly applyPlan: ApplyPlanService,
  ) {}

  async execute(user: { id: number; isPremium: boolean }, now = new Date()): Promise<SubscriptionStatusResponse> {
    const account = await this.plans.find(user.id);
    // Never a plan change: what identity says (a user made Pro before billing kept plans).
    if (!account) return { hasActiveSubscription: false, updated: false, isPremium: user.isPremium };
    const active = decidePremium(account, now);
    if (active === account.isPremium) return { hasActiveSubscription: active, updated: false, isPremium: active };
    const result = await this.applyPlan.applyPlan(
      user.id,
      { status: active ? account.status : 'canceled', source: account.source ?? 'operator' },
      { now, when: (current) => decidePremium(current, now) !== current.isPremium },
    );
    return { hasActiveSubscription: result.isPremium, updated: result.applied, isPremium: result.isPremium };
  }
}
