import { Injectable } from '@nestjs/common';
import { EntityManager } from '@mikro-orm/postgresql';
import { getLogger } from '@plink/observability';
import { BillingAccountsRepository } from '../accounts/billing-accounts.repository';
import { isStripeNotFound, StripeConnection } from '../stripe/stripe-client';
import { TrialsTakenRepository } from '../trials/trials-taken.repository';

/**
 * A user deleted their account (identity's 'user.deleted'): their Stripe subscription is cancelled at once (not
 * at the period's end: nobody is left to use it, and nothing more is charged), then billing forgets them: the
 * account row, the trials recorded for them, the Stripe events stored under their id. Of a trial it keeps
 * only the keyed hash of the address that took it (billing.trials_remembered, see docs/data-retention.md),
 * so that the address cannot take the free trial again with a new account. A failed call to Stripe
 * throws before anything is removed, so the queue tries again (the subscription must not outlive the
 * account); a subscription Stripe no longer has is done already. Safe to repeat.
 */
@Injectable()
export class AccountDeletedService {
  constructor(
    private readonly em: EntityManager,
    private readonly accounts: BillingAccountsRepository,
    private readonly stripe: StripeConnection,
    private readonly trials: TrialsTakenRepository,
  ) {}

  async execute(userId: number): Promise<void> {
    const cancelled = await this.em.fork().transactional(async (tx) => {
      const account = await this.accounts.lockIfExists(tx, userId);
      let cancelled = false;
      const subscriptionId = account?.stripeSubscriptionId;
      if (subscriptionId && this.stripe.configured && account.status !== 'canceled') {
        try {
          await this.stripe.api.subscriptions.cancel(subscriptionId, {}, { idempotencyKey: `plink-account-deleted-${userId}-${subscriptionId}` });
          cancelled = true;
        } catch (err) {
          if (!isStripeNotFound(err)) throw err;
        }
      }
      await tx.execute('delete from billing.accounts where user_id = ?', [userId]);
      await this.trials.rememberTrialsOf(tx, userId);
      await tx.execute('delete from billing.trials_taken where user_id = ?', [userId]);
      await tx.execute('delete from billing.stripe_events where user_id = ?', [userId]);
      return cancelled;
    });
    getLogger().info({ userId, subscriptionCancelled: cancelled }, 'account deleted: billing removed');
  }
}
