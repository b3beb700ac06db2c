import { Injectable } from '@nestjs/common';
import type { SubscriptionStatusResponse } from '@plink/contracts';
import { PaymentsGateway, type Payer } from '../payments/payments.gateway';
import { decidePremium } from '../plans/plan-rules';
import { ApplyPlanService } from './apply-plan.service';
import { ReadPlanService } from './read-plan.service';

/**
 * The caller's plan, corrected (check-subscription-status, and reset-subscription-status, which touches
 * only the caller's own plan). A user with a Stripe customer has their subscription re-read from Stripe and
 * the stored plan set to it (a Stripe failure: 503, nothing changed). Otherwise, and for a running operator
 * grant, the stored plan answers: one that ran out since it was stored (a grant past its end, not yet
 * reached by the expiry job) is ended now. `updated` says whether the stored plan changed.
 */
@Injectable()
export class SubscriptionStatusService {
  constructor(
    private readonly plans: ReadPlanService,
    private readonly applyPlan: ApplyPlanService,
    private readonly payments: PaymentsGateway,
  ) {}

  async execute(user: Payer, now = new Date()): Promise<SubscriptionStatusResponse> {
    const account = await this.plans.find(user.id);
    // Never a plan change: what identity says (a user made Pro before billing kept plans).
    if (!account) return { hasActiveSubscription: false, updated: false, isPremium: user.isPremium };
    const runningGrant = account.source === 'operator' && decidePremium(account, now);
    if (this.payments.configured && account.stripeCustomerId && !runningGrant) return this.payments.syncSubscription(user, account);
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
