import { Processor } from '@nestjs/bullmq';
import { QUEUE_SETTINGS, QueueName } from '@plink/contracts';
import { ContractWorker, type JobHandlers } from '@plink/queue';
import { AccountDeletedService } from '../use-cases/account-deleted.service';
import { CustomerEmailService } from '../use-cases/customer-email.service';
import { ExpireGrantsService } from '../use-cases/expire-grants.service';
import { LeadRemovalService } from '../use-cases/lead-removal.service';
import { HandleStripeEventService } from '../use-cases/handle-stripe-event.service';

/**
 * The billing queue: Stripe's webhook events (stored by the gateway), ending operator grants whose time is up,
 * the lead removal after downgrades, a user's new e-mail address for their Stripe customer, and a deleted account's subscription cancelled at once.
 */
@Processor(QueueName.Billing, { concurrency: QUEUE_SETTINGS[QueueName.Billing].concurrency })
export class BillingProcessor extends ContractWorker<QueueName.Billing> {
  protected readonly queueName = QueueName.Billing;
  protected readonly handlers: JobHandlers<QueueName.Billing> = {
    'billing.expire-grants': async () => {
      await this.expireGrants.execute();
    },
    'billing.lead-removal': async () => {
      await this.leadRemoval.execute();
    },
    'billing.stripe-event': async (payload) => {
      await this.stripeEvents.execute(payload.eventId);
    },
    'user.changed': async (payload) => {
      await this.customerEmail.execute(payload);
    },
    'user.deleted': (payload) => this.accountDeleted.execute(payload.userId),
  };

  constructor(
    private readonly expireGrants: ExpireGrantsService,
    private readonly leadRemoval: LeadRemovalService,
    private readonly stripeEvents: HandleStripeEventService,
    private readonly customerEmail: CustomerEmailService,
    private readonly accountDeleted: AccountDeletedService,
  ) {
    super();
  }
}
