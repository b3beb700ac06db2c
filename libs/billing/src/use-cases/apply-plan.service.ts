import { Injectable } from '@nestjs/common';
import { EntityManager } from '@mikro-orm/postgresql';
import type { PlanStatus } from '@plink/contracts';
import { Outbox } from '@plink/queue';
import { getLogger } from '@plink/observability';
import type { BillingAccount, PlanSource } from '../accounts/billing-account.entity';
import { BillingAccountsRepository } from '../accounts/billing-accounts.repository';
import { decidePremium, periodEndOf } from '../plans/plan-rules';

/**
 * A new plan state for a user: what a Stripe subscription or the operator says. Fields left
 * out keep their stored value; `source` and `status` are always given.
 */
export interface PlanChange {
  status: PlanStatus;
  source: PlanSource;
  stripeCustomerId?: string | null;
  stripeSubscriptionId?: string | null;
  currentPeriodEnd?: Date | null;
  trialEnd?: Date | null;
  trialUsed?: boolean;
  cancelAtPeriodEnd?: boolean;
  operatorExpiresAt?: Date | null;
}

export interface PlanChangeOptions {
  /** The moment the plan is judged at (operator grants' expiry); the clock by default. */
  now?: Date;
  /** The Stripe event's time: a change older than the last one applied is ignored (out-of-order events). */
  eventAt?: Date;
  /**
   * Applies the change only if the stored state (read under the row lock) still calls for it, e.g. the
   * expiry job ends a grant only if the operator did not renew it in the meantime.
   */
  when?: (account: BillingAccount) => boolean;
  /**
   * The plan version (`planVersion`) read before the state this change comes from was asked of Stripe: if
   * another change was stored since, this one may be older than it, and nothing is stored (`conflict`).
   */
  basedOn?: number;
}

export interface AppliedPlan {
  userId: number;
  isPremium: boolean;
  /** Pro before this change. */
  wasPremium: boolean;
  /** False when the change was stale (an older event) or no longer called for (`when`): nothing was stored. */
  applied: boolean;
  /** Nothing was stored because another change was stored since `basedOn`: read Stripe again. */
  conflict: boolean;
  account: BillingAccount;
}

/**
 * The one way a user's plan changes (Stripe and the operator alike): stores billing's state, decides
 * isPremium ({@link decidePremium}) and, in the same transaction, publishes 'plan.changed' with the account's
 * plan version (identity, pages and leads each keep their copy from it, one hop away), and records the e-mail
 * when Pro starts or ends. A Redis outage delays those messages and loses none. Changes of one user are
 * serialised by a row lock, so their versions follow the order they were made in.
 */
@Injectable()
export class ApplyPlanService {
  constructor(
    private readonly em: EntityManager,
    private readonly accounts: BillingAccountsRepository,
    private readonly outbox: Outbox,
  ) {}

  async applyPlan(userId: number, change: PlanChange, options: PlanChangeOptions = {}): Promise<AppliedPlan> {
    const result = await this.em.fork().transactional(async (tx) => {
      const account = await this.accounts.lockAccount(tx, userId);
      const wasPremium = account.isPremium;
      const stale = options.eventAt && account.lastEventAt && options.eventAt.getTime() < account.lastEventAt.getTime();
      if (stale || (options.when && !options.when(account))) {
        return { userId, isPremium: wasPremium, wasPremium, applied: false, conflict: false, account };
      }
      if (options.basedOn !== undefined && account.planVersion !== options.basedOn) {
        return { userId, isPremium: wasPremium, wasPremium, applied: false, conflict: true, account };
      }
      const now = options.now ?? new Date();
      account.status = change.status;
      account.source = change.source;
      if (change.stripeCustomerId !== undefined) account.stripeCustomerId = change.stripeCustomerId;
      if (change.stripeSubscriptionId !== undefined) account.stripeSubscriptionId = change.stripeSubscriptionId;
      if (change.currentPeriodEnd !== undefined) account.currentPeriodEnd = change.currentPeriodEnd;
      if (change.trialEnd !== undefined) account.trialEnd = change.trialEnd;
      if (change.cancelAtPeriodEnd !== undefined) account.cancelAtPeriodEnd = change.cancelAtPeriodEnd;
      if (change.operatorExpiresAt !== undefined) account.operatorExpiresAt = change.operatorExpiresAt;
      if (change.trialUsed) account.trialUsed = true;
      if (options.eventAt) account.lastEventAt = options.eventAt;
      account.isPremium = decidePremium(account, now);
      if (wasPremium !== account.isPremium) {
        // A new downgrade starts the 30 days of the lead removal afresh; Pro again cancels it.
        account.downgradedAt = account.isPremium ? null : now;
        account.leadRemovalWarnedAt = null;
        account.leadsRemovedAt = null;
      }
      account.updatedAt = now;
      account.planVersion += 1;
      this.record(tx, account, wasPremium, now);
      return { userId, isPremium: account.isPremium, wasPremium, applied: true, conflict: false, account };
    });
    if (result.applied) {
      getLogger().info(
        { userId, source: change.source, status: change.status, isPremium: result.isPremium, wasPremium: result.wasPremium },
        'plan changed',
      );
    }
    return result;
  }

  private record(tx: EntityManager, account: BillingAccount, wasPremium: boolean, now: Date): void {
    const periodEnd = periodEndOf(account);
    this.outbox.publish(tx, 'plan.changed', {
      v: 1,
      userId: account.userId,
      isPremium: account.isPremium,
      planStatus: account.status,
      periodEnd: periodEnd ? periodEnd.toISOString() : null,
      stripeCustomerId: account.stripeCustomerId ?? null,
      stripeSubscriptionId: account.stripeSubscriptionId ?? null,
      version: account.planVersion,
      changedAt: now.toISOString(),
    });
    if (!wasPremium && account.isPremium) {
      // The trial says when it ends; a subscription renews by itself (no end to tell); a grant may end.
      const trial = account.source === 'stripe' && account.status === 'trialing';
      const until = account.source === 'stripe' && !trial ? null : periodEnd;
      // Account e-mails go to identity, which has the address (and checks the e-mail is still wanted).
      this.outbox.record(tx, 'identity.account-email', {
        v: 1,
        userId: account.userId,
        email: 'email.pro-started',
        content: { until: until ? until.toISOString() : null, ...(trial ? { trial: true } : {}) },
      });
    } else if (wasPremium && !account.isPremium) {
      this.outbox.record(tx, 'identity.account-email', { v: 1, userId: account.userId, email: 'email.pro-ended', content: {} });
    }
  }
}
