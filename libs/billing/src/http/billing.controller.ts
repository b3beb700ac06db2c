import { BadRequestException, Body, Controller, Get, HttpCode, Post, ServiceUnavailableException, UseGuards } from '@nestjs/common';
import {
  BillingMessages,
  verifyCheckoutSchema,
  type BillingPortalResponse,
  type CancelSubscriptionResponse,
  type ResumeSubscriptionResponse,
  type SubscriptionDto,
  type SubscriptionStatusResponse,
  type VerifyCheckoutRequest,
} from '@plink/contracts';
import { CurrentUser, SignedInGuard, type User } from '@plink/identity';
import { ZodPipe } from '@plink/platform';
import { PaymentsGateway, type CheckoutVerification } from '../payments/payments.gateway';
import { leadRemovalAtOf, periodEndOf } from '../plans/plan-rules';
import { ReadPlanService } from '../use-cases/read-plan.service';
import { PlanPropagation } from '../use-cases/plan-propagation.service';
import { SubscriptionStatusService } from '../use-cases/subscription-status.service';

/** The five subscription calls of SPEC §7, signed-in only, each about the caller's own plan. */
@Controller('api')
@UseGuards(SignedInGuard)
export class BillingController {
  constructor(
    private readonly payments: PaymentsGateway,
    private readonly plans: ReadPlanService,
    private readonly status: SubscriptionStatusService,
    private readonly propagation: PlanPropagation,
  ) {}

  /** The caller's plan, as Settings → Subscription shows it. */
  @Get('subscription')
  async subscription(@CurrentUser() user: User): Promise<SubscriptionDto> {
    const account = await this.plans.find(user.id);
    const iso = (d: Date | null | undefined) => (d ? d.toISOString() : null);
    const isPremium = account ? account.isPremium : user.isPremium;
    return {
      isPremium,
      status: account?.status ?? (user.isPremium ? 'active' : 'none'),
      source: account?.source ?? null,
      trialEnd: account?.status === 'trialing' ? iso(account.trialEnd) : null,
      currentPeriodEnd: account ? iso(periodEndOf(account)) : null,
      cancelAtPeriodEnd: account?.cancelAtPeriodEnd ?? false,
      trialAvailable: !account?.trialUsed,
      paymentsConfigured: this.payments.configured,
      canManageBilling: this.payments.configured && Boolean(account?.stripeCustomerId),
      downgradedAt: account && !account.isPremium ? iso(account.downgradedAt) : null,
      leadRemovalAt: account ? iso(leadRemovalAtOf(account)) : null,
    };
  }

  @Post('create-subscription')
  @HttpCode(200)
  async createSubscription(@CurrentUser() user: User): Promise<{ url: string }> {
    return this.payments.createCheckout(user, await this.plans.find(user.id));
  }

  /** The return from Checkout: the caller's own session; Pro at once when it started a subscription (GET /api/user says so on return). */
  @Post('verify-checkout')
  @HttpCode(200)
  async verifyCheckout(@CurrentUser() user: User, @Body(new ZodPipe(verifyCheckoutSchema)) body: VerifyCheckoutRequest): Promise<CheckoutVerification> {
    const result = await this.payments.verifyCheckout(user, body.sessionId);
    if (result.isPremium !== user.isPremium) await this.propagation.untilIdentityShows(user.id, result.isPremium);
    return result;
  }

  @Post('check-subscription-status')
  @HttpCode(200)
  checkStatus(@CurrentUser() user: User): Promise<SubscriptionStatusResponse> {
    return this.recheck(user);
  }

  /** SPEC lets any user reach it: it only re-checks the caller's own plan, like the status check. */
  @Post('admin/reset-subscription-status')
  @HttpCode(200)
  resetStatus(@CurrentUser() user: User): Promise<SubscriptionStatusResponse> {
    return this.recheck(user);
  }

  /** The status re-read; a corrected plan is waited for in identity, as the SPA refetches the user after it. */
  private async recheck(user: User): Promise<SubscriptionStatusResponse> {
    const result = await this.status.execute(user);
    if (result.updated && result.isPremium !== user.isPremium) await this.propagation.untilIdentityShows(user.id, result.isPremium);
    return result;
  }

  /** An operator grant has nothing to cancel (400); without payments, 503; otherwise the provider cancels at period end. */
  @Post('cancel-subscription')
  @HttpCode(200)
  async cancel(@CurrentUser() user: User): Promise<CancelSubscriptionResponse> {
    const account = await this.plans.find(user.id);
    if (account?.isPremium && account.source === 'operator') throw new BadRequestException({ message: BillingMessages.grantedByOperator });
    if (!this.payments.configured) throw new ServiceUnavailableException({ message: BillingMessages.notConfigured });
    if (!account?.isPremium || !account.stripeSubscriptionId) throw new BadRequestException({ message: BillingMessages.noSubscription });
    const { endsAt } = await this.payments.cancelSubscription(user, account);
    return { message: BillingMessages.cancelled, endsAt: endsAt ? endsAt.toISOString() : null };
  }

  /** Undoes a cancellation while the subscription still runs (Settings → Subscription's Resume). */
  @Post('resume-subscription')
  @HttpCode(200)
  async resume(@CurrentUser() user: User): Promise<ResumeSubscriptionResponse> {
    if (!this.payments.configured) throw new ServiceUnavailableException({ message: BillingMessages.notConfigured });
    const account = await this.plans.find(user.id);
    if (!account) throw new BadRequestException({ message: BillingMessages.nothingToResume });
    const { renewsAt } = await this.payments.resumeSubscription(user, account);
    return { message: BillingMessages.resumed, renewsAt: renewsAt ? renewsAt.toISOString() : null };
  }

  /** 'Manage billing': a Stripe Billing Portal session (card, invoices) that returns to Settings → Subscription. */
  @Post('billing-portal')
  @HttpCode(200)
  async billingPortal(@CurrentUser() user: User): Promise<BillingPortalResponse> {
    return this.payments.billingPortal(user, await this.plans.find(user.id));
  }
}
