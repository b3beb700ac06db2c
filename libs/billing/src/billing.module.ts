import { Module } from '@nestjs/common';
import { EntityManager } from '@mikro-orm/postgresql';
import { APP_CONFIG, type AppConfig } from '@plink/config';
import { BillingAccountsRepository } from './accounts/billing-accounts.repository';
import { BillingController } from './http/billing.controller';
import { StripeWebhookController } from './http/stripe-webhook.controller';
import { PaymentsGateway, PaymentsNotConfigured } from './payments/payments.gateway';
import { StripeConnection } from './stripe/stripe-client';
import { StripeEventsRepository } from './stripe/stripe-events.repository';
import { StripePayments } from './stripe/stripe.payments';
import { ApplyPlanService } from './use-cases/apply-plan.service';
import { AccountDeletedService } from './use-cases/account-deleted.service';
import { CustomerEmailService } from './use-cases/customer-email.service';
import { ExpireGrantsService } from './use-cases/expire-grants.service';
import { LeadRemovalService } from './use-cases/lead-removal.service';
import { HandleStripeEventService } from './use-cases/handle-stripe-event.service';
import { OperatorPlansService } from './use-cases/operator-plans.service';
import { PlanPropagation } from './use-cases/plan-propagation.service';
import { ReadPlanService } from './use-cases/read-plan.service';
import { RecordStripeEventService } from './use-cases/record-stripe-event.service';
import { StripeSubscriptionSync } from './use-cases/stripe-subscription-sync.service';
import { SubscriptionStatusService } from './use-cases/subscription-status.service';
import { TrialLedger } from './trials/trial-ledger.service';
import { TrialsTakenRepository } from './trials/trials-taken.repository';
import { BillingProcessor } from './workers/billing.processor';

/**
 * Billing's plan store and the one way plans change (shared by its HTTP calls, workers and operator command),
 * and the Stripe client with the re-sync of a customer's subscription (no client without STRIPE_SECRET_KEY).
 */
@Module({
  providers: [
    BillingAccountsRepository,
    StripeEventsRepository,
    TrialsTakenRepository,
    ReadPlanService,
    ApplyPlanService,
    StripeConnection,
    StripeSubscriptionSync,
    TrialLedger,
  ],
  exports: [BillingAccountsRepository, StripeEventsRepository, TrialsTakenRepository, ReadPlanService, ApplyPlanService, StripeConnection, StripeSubscriptionSync, TrialLedger],
})
export class BillingCoreModule {}

/**
 * The subscription calls and Stripe's webhook intake, mounted by the gateway. The payment provider is a
 * port: Stripe when STRIPE_SECRET_KEY is set, otherwise every payment call answers 503 "Payments are not
 * configured on this server.". Needs the `UserDirectory` port of the contracts (the gateway provides identity's).
 */
@Module({
  imports: [BillingCoreModule],
  controllers: [BillingController, StripeWebhookController],
  providers: [
    SubscriptionStatusService,
    PlanPropagation,
    RecordStripeEventService,
    {
      provide: PaymentsGateway,
      inject: [APP_CONFIG, StripeConnection, EntityManager, BillingAccountsRepository, ReadPlanService, StripeSubscriptionSync, TrialLedger],
      useFactory: (
        config: AppConfig,
        stripe: StripeConnection,
        em: EntityManager,
        accounts: BillingAccountsRepository,
        plans: ReadPlanService,
        sync: StripeSubscriptionSync,
        trials: TrialLedger,
      ) => (stripe.configured ? new StripePayments(stripe, em, accounts, plans, sync, trials, config.appOrigin) : new PaymentsNotConfigured()),
    },
  ],
})
export class BillingHttpModule {}

/**
 * The billing service's workers: the billing queue (Stripe's events; ending operator grants on time, every 10
 * minutes; the warning and removal of paused pages' leads after a downgrade, every hour; a user's new e-mail
 * address for their Stripe customer).
 */
@Module({
  imports: [BillingCoreModule],
  providers: [ExpireGrantsService, LeadRemovalService, HandleStripeEventService, CustomerEmailService, AccountDeletedService, BillingProcessor],
  exports: [ExpireGrantsService, LeadRemovalService],
})
export class BillingWorkerModule {}

/** What the operator's command needs: grant and revoke (and the `UserDirectory` port of the contracts, which the command line provides). */
@Module({
  imports: [BillingCoreModule],
  providers: [OperatorPlansService],
  exports: [OperatorPlansService],
})
export class BillingOperatorModule {}
