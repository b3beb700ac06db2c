import { Injectable } from '@nestjs/common';
import { EntityManager } from '@mikro-orm/postgresql';
import type { JobPayload } from '@plink/contracts';
import { getLogger } from '@plink/observability';
import { BillingAccountsRepository } from '../accounts/billing-accounts.repository';
import { isStripeNotFound, StripeConnection } from '../stripe/stripe-client';

/** What became of one 'user.changed' in billing. */
export type CustomerEmailOutcome = 'updated' | 'no-customer' | 'stale';

/**
 * Gives a user's new e-mail address (identity's 'user.changed') to their Stripe customer, so receipts, invoices
 * and the Billing Portal follow the address they use in Plink. A user billing never saw has no customer: their
 * first checkout creates one with the address of that moment.
 *
 * The account row is locked while Stripe is called, so two changes of one user take turns, and a change is
 * applied only if it is newer than the last one applied (a retry that runs late cannot put an old address
 * back). A failed call to Stripe throws: nothing is recorded and the queue tries the job again later.
 */
@Injectable()
export class CustomerEmailService {
  constructor(
    private readonly em: EntityManager,
    private readonly accounts: BillingAccountsRepository,
    private readonly stripe: StripeConnection,
  ) {}

  async execute(change: JobPayload<'user.changed'>): Promise<CustomerEmailOutcome> {
    return this.em.fork().transactional(async (tx) => {
      const account = await this.accounts.lockIfExists(tx, change.userId);
      if (!account) return 'no-customer';
      if (account.profileVersion >= change.version) return 'stale';
      const customerId = account.stripeCustomerId;
      let outcome: CustomerEmailOutcome = 'no-customer';
      if (customerId && this.stripe.configured) {
        try {
          await this.stripe.api.customers.update(customerId, { email: change.email }, { idempotencyKey: `plink-customer-email-${change.userId}-${change.version}` });
          outcome = 'updated';
        } catch (err) {
          // A customer removed in Stripe's dashboard has no address to keep: nothing to retry.
          if (!isStripeNotFound(err)) throw err;
          getLogger().warn({ userId: change.userId, customerId }, "the user's Stripe customer no longer exists: e-mail change not given to Stripe");
        }
      }
      await this.accounts.saveProfileVersion(tx, change.userId, change.version);
      if (outcome === 'updated') getLogger().info({ userId: change.userId }, 'stripe customer e-mail updated');
      return outcome;
    });
  }
}
