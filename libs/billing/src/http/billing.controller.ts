import { BadRequestException, Body, Controller, Get, HttpCode, Post, ServiceUnavailableException, UseGuards } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import {
  BillingMessages,
  cancelSubscriptionResponseSchema,
  checkoutVerificationSchema,
  redirectUrlResponseSchema,
  resumeSubscriptionResponseSchema,
  subscriptionSchema,
  subscriptionStatusSchema,
  verifyCheckoutSchema,
  type BillingPortalResponse,
  type CancelSubscriptionResponse,
  type ResumeSubscriptionResponse,
  type SubscriptionDto,
  type SubscriptionStatusResponse,
  type VerifyCheckoutRequest,
} from '@plink/contracts';
import { ApiDoc, CurrentUser, SignedInGuard, ZodPipe, type SignedInUser } from '@plink/http';
import { PaymentsGateway, type CheckoutVerification } from '../payments/payments.gateway';
import { leadRemovalAtOf, periodEndOf } from '../plans/plan-rules';
import { ReadPlanService } from '../use-cases/read-plan.service';
import { PlanPropagation } from '../use-cases/plan-propagation.service';
import { SubscriptionStatusService } from '../use-cases/subscription-status.service';
import { TrialLedger } from '../trials/trial-ledger.service';

/** The subscription calls, signed-in only, each about the caller's own plan. */
@ApiTags('Billing')
@Controller('api')
@UseGuards(SignedInGuard)
export class BillingController {
  constructor(
    private readonly payments: PaymentsGateway,
    private readonly plans: ReadPlanService,
    private readonly status: SubscriptionStatusService,
    private readonly propagation: PlanPropagation,
    private readonly trials: TrialLedger,
  ) {}

  /** The caller's plan, as Settings → Subscription shows it. */
  @ApiDoc({ summary: "The caller's plan, as Settings → Subscription shows it", ok: subscriptionSchema })
  @Get('subscription')
  async subscription(@CurrentUser() user: SignedInUser): Promise<SubscriptionDto> {
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
      // Once per person: another account of the same person (e-mail, card) has no trial either.
      trialAvailable: await this.trials.availableTo(user.email, account),
      paymentsConfigured: this.payments.configured,
      canManageBilling: this.payments.configured && Boolean(account?.stripeCustomerId),
      downgradedAt: account && !account.isPremium ? iso(account.downgradedAt) : null,
      leadRemovalAt: account ? iso(leadRemovalAtOf(account)) : null,
    };
  }

  @ApiDoc({
    summary: 'Start a Stripe Checkout for Pro',
    description: 'Answers the Checkout page to send the browser to; it comes back to `/checkout/success?session_id=…`.',
    ok: redirectUrlResponseSchema,
    errors: { 400: BillingMessages.alreadyPremium, 403: BillingMessages.verifyFirst, 503: [BillingMessages.notConfigured, BillingMessages.providerUnavailable] },
  })
  @Post('create-subscription')
  @HttpCode(200)
  async createSubscription(@CurrentUser() user: SignedInUser): Promise<{ url: string }> {
    return this.payments.createCheckout(user, await this.plans.find(user.id));
  }

  /** The return from Checkout: the caller's own session; Pro at once when it started a subscription (GET /api/user says so on return). */
  @ApiDoc({
    summary: 'Confirm a finished Checkout (the return page sends it)',
    body: verifyCheckoutSchema,
    ok: checkoutVerificationSchema,
    errors: { 404: BillingMessages.sessionNotFound, 503: [BillingMessages.notConfigured, BillingMessages.providerUnavailable] },
  })
  @Post('verify-checkout')
  @HttpCode(200)
  async verifyCheckout(@CurrentUser() user: SignedInUser, @Body(new ZodPipe(verifyCheckoutSchema)) body: VerifyCheckoutRequest): Promise<CheckoutVerification> {
    const result = await this.payments.verifyCheckout(user, body.sessionId);
    if (result.isPremium !== user.isPremium) await this.propagation.untilIdentityShows(user.id, result.isPremium);
    return result;
  }

  @ApiDoc({ summary: "Re-read the caller's subscription from Stripe and correct the plan", ok: subscriptionStatusSchema, errors: { 503: BillingMessages.providerUnavailable } })
  @Post('check-subscription-status')
  @HttpCode(200)
  checkStatus(@CurrentUser() user: SignedInUser): Promise<SubscriptionStatusResponse> {
    return this.recheck(user);
  }

  /** Any signed-in user may call it (from Settings): it only re-checks the caller's own plan, like the status check. */
  @ApiDoc({ summary: 'The same as check-subscription-status (kept for older clients)', ok: subscriptionStatusSchema, errors: { 503: BillingMessages.providerUnavailable } })
  @Post('admin/reset-subscription-status')
  @HttpCode(200)
  resetStatus(@CurrentUser() user: SignedInUser): Promise<SubscriptionStatusResponse> {
    return this.recheck(user);
  }

  /** The status re-read; a corrected plan is waited for in identity, as the SPA refetches the user after it. */
  private async recheck(user: SignedInUser): Promise<SubscriptionStatusResponse> {
    const result = await this.status.execute(user);
    if (result.updated && result.isPremium !== user.isPremium) await this.propagation.untilIdentityShows(user.id, result.isPremium);
    return result;
  }

  /** An operator grant has nothing to cancel (400); without payments, 503; otherwise the provider cancels at period end. */
  @ApiDoc({
    summary: 'Cancel Pro at the end of the paid period (or trial)',
    ok: cancelSubscriptionResponseSchema,
    errors: { 400: [BillingMessages.grantedByOperator, BillingMessages.noSubscription], 503: [BillingMessages.notConfigured, BillingMessages.providerUnavailable] },
  })
  @Post('cancel-subscription')
  @HttpCode(200)
  async cancel(@CurrentUser() user: SignedInUser): Promise<CancelSubscriptionResponse> {
    const account = await this.plans.find(user.id);
    if (account?.isPremium && account.source === 'operator') throw new BadRequestException({ message: BillingMessages.grantedByOperator });
    if (!this.payments.configured) throw new ServiceUnavailableException({ message: BillingMessages.notConfigured });
    if (!account?.isPremium || !account.stripeSubscriptionId) throw new BadRequestException({ message: BillingMessages.noSubscription });
    const { endsAt } = await this.payments.cancelSubscription(user, account);
    return { message: BillingMessages.cancelled, endsAt: endsAt ? endsAt.toISOString() : null };
  }

  /** Undoes a cancellation while the subscription still runs (Settings → Subscription's Resume). */
  @ApiDoc({
    summary: 'Undo a cancellation while the subscription still runs',
    ok: resumeSubscriptionResponseSchema,
    errors: { 400: BillingMessages.nothingToResume, 503: [BillingMessages.notConfigured, BillingMessages.providerUnavailable] },
  })
  @Post('resume-subscription')
  @HttpCode(200)
  async resume(@CurrentUser() user: SignedInUser): Promise<ResumeSubscriptionResponse> {
    if (!this.payments.configured) throw new ServiceUnavailableException({ message: BillingMessages.notConfigured });
    const account = await this.plans.find(user.id);
    if (!account) throw new BadRequestException({ message: BillingMessages.nothingToResume });
    const { renewsAt } = await this.payments.resumeSubscription(user, account);
    return { message: BillingMessages.resumed, renewsAt: renewsAt ? renewsAt.toISOString() : null };
  }

  /** 'Manage billing': a Stripe Billing Portal session (card, invoices) that returns to Settings → Subscription. */
  @ApiDoc({
    summary: "A Stripe Billing Portal session (card, invoices)",
    ok: redirectUrlResponseSchema,
    errors: { 400: BillingMessages.noBillingAccount, 503: [BillingMessages.notConfigured, BillingMessages.providerUnavailable] },
  })
  @Post('billing-portal')
  @HttpCode(200)
  async billingPortal(@CurrentUser() user: SignedInUser): Promise<BillingPortalResponse> {
    return this.payments.billingPortal(user, await this.plans.find(user.id));
  }
}
