import { Module } from '@nestjs/common';
import { IdentityReadModule } from '@plink/identity';
import { BillingController } from './http/billing.controller';
import { PaymentsGateway, PaymentsNotConfigured } from './payments/payments.gateway';
import { ApplyPlanService } from './use-cases/apply-plan.service';
import { ExpireGrantsService } from './use-cases/expire-grants.service';
import { LeadRemovalService } from './use-cases/lead-removal.service';
import { OperatorPlansService } from './use-cases/operator-plans.service';
import { ReadPlanService } from './use-cases/read-plan.service';
import { SubscriptionStatusService } from './use-cases/subscription-status.service';
import { BillingProcessor } from './workers/billing.processor';
import { ExpireGrantsScheduler } from './workers/expire-grants.scheduler';
import { LeadRemovalScheduler } from './workers/lead-removal.scheduler';

/** Billing's plan store and the one way plans change (shared by its HTTP calls, workers and operator command). */
@Module({
  providers: [ReadPlanService, ApplyPlanService],
  exports: [ReadPlanService, ApplyPlanService],
})
export class BillingCoreModule {}

/**
 * The subscription calls, mounted by the gateway. The payment provider is a port: this release takes no
 * payments, whatever STRIPE_SECRET_KEY says (the Stripe implementation replaces PaymentsNotConfigured here).
 */
@Module({
  imports: [BillingCoreModule, IdentityReadModule],
  controllers: [BillingController],
  providers: [SubscriptionStatusService, { provide: PaymentsGateway, useValue: new PaymentsNotConfigured() }],
})
export class BillingHttpModule {}

/**
 * The billing service's workers: the billing queue (ending operator grants on time, every 10 minutes; the
 * warning and removal of paused pages' leads after a downgrade, every hour).
 */
@Module({
  imports: [BillingCoreModule],
  providers: [ExpireGrantsService, LeadRemovalService, BillingProcessor, ExpireGrantsScheduler, LeadRemovalScheduler],
  exports: [ExpireGrantsService, LeadRemovalService],
})
export class BillingWorkerModule {}

/** What the operator's command needs: grant and revoke. */
@Module({
  imports: [BillingCoreModule, IdentityReadModule],
  providers: [OperatorPlansService],
  exports: [OperatorPlansService],
})
export class BillingOperatorModule {}
