import { Injectable } from '@nestjs/common';
import { EntityManager } from '@mikro-orm/postgresql';
import type Stripe from 'stripe';
import type { JobPayload } from '@plink/contracts';
import { Outbox } from '@plink/queue';
import { getLogger } from '@plink/observability';
import { BillingAccountsRepository } from '../accounts/billing-accounts.repository';
import { StripeConnection, isStripeNotFound } from '../stripe/stripe-client';
import { StripeEventsRepository, type StripeEventOutcome } from '../stripe/stripe-events.repository';
import { idOf } from '../stripe/subscription-state';
import { StripeSubscriptionSync, type SyncResult } from './stripe-subscription-sync.service';

/** Who an event is about, as the event says it. */
interface EventSubject {
  customerId: string | null;
  /** Our user id as the event's object carries it (client_reference_id, metadata.userId). */
  userIdHint: string | null;
}

/** An account e-mail an event asks for, addressed by identity (which has the address). */
type Mail = Pick<JobPayload<'identity.account-email'>, 'email' | 'content'>;

/**
 * The billing worker's handling of a stored Stripe event ('billing.stripe-event'). It finds the user (by the
 * Stripe customer stored on their account, else by the user id our checkout put on the session, the
 * subscription and the customer), re-reads the customer's subscription from Stripe and applies its
 * current state, never the event's snapshot: events arriving late, twice or out of order cannot flip the
 * plan wrongly, and `event.created` keeps an older event from overwriting what a newer one stored. If
 * Stripe cannot be reached the job fails and BullMQ tries again. The event is then marked processed, in
 * one transaction with its e-mails (trial ending, payment failed), so it is never handled twice.
 */
@Injectable()
export class HandleStripeEventService {
  constructor(
    private readonly em: EntityManager,
    private readonly events: StripeEventsRepository,
    private readonly accounts: BillingAccountsRepository,
    private readonly outbox: Outbox,
    private readonly stripe: StripeConnection,
    private readonly sync: StripeSubscriptionSync,
  ) {}

  async execute(eventId: string): Promise<StripeEventOutcome | null> {
    const stored = await this.events.find(eventId);
    if (!stored) {
      getLogger().warn({ eventId }, 'stripe event not found: nothing to do');
      return null;
    }
    if (stored.processedAt) {
      getLogger().info({ eventId, type: stored.type }, 'stripe event already processed');
      return null;
    }
    const event = stored.payload;
    const subject = subjectOf(event);
    const userId = subject.customerId ? await this.findUser(subject.customerId, subject.userIdHint) : null;
    if (userId === null || !subject.customerId) {
      getLogger().warn({ eventId, type: event.type }, 'stripe event for a customer Plink does not know: marked processed');
      await this.finish(eventId, 'unknown-customer', null, []);
      return 'unknown-customer';
    }
    const eventAt = new Date(event.created * 1000);
    const result = await this.sync.syncCustomer(userId, subject.customerId, { eventAt });
    const newerApplied = (result.account.lastEventAt?.getTime() ?? 0) > eventAt.getTime();
    const outcome: StripeEventOutcome = result.applied ? 'applied' : newerApplied ? 'stale' : 'unchanged';
    await this.finish(eventId, outcome, userId, mailsFor(event, result));
    getLogger().info(
      { eventId, type: event.type, userId, outcome, status: result.account.status, isPremium: result.isPremium },
      'stripe event processed',
    );
    return outcome;
  }

  /**
   * The user of a Stripe customer: the account that stores it, else the user id our checkout gave the
   * event's object or the customer, for a user billing knows (our checkout creates their account before it
   * creates the customer) whose account has no other customer.
   */
  private async findUser(customerId: string, hint: string | null): Promise<number | null> {
    const byCustomer = await this.accounts.findUserByCustomer(customerId);
    if (byCustomer !== null) return byCustomer;
    const userId = toUserId(hint ?? (await this.customerUserId(customerId)));
    if (userId === null) return null;
    const account = await this.accounts.findCustomerOf(userId);
    if (!account) return null;
    if (account.customerId && account.customerId !== customerId) {
      getLogger().warn({ userId }, 'stripe event names a user who has another Stripe customer: ignored');
      return null;
    }
    return userId;
  }

  /** metadata.userId of the customer (set when checkout created it); null when Stripe has no such customer. */
  private async customerUserId(customerId: string): Promise<string | null> {
    try {
      const customer = await this.stripe.api.customers.retrieve(customerId);
      return customer.deleted ? null : (customer.metadata?.userId ?? null);
    } catch (err) {
      if (isStripeNotFound(err)) return null;
      throw err;
    }
  }

  private async finish(eventId: string, outcome: StripeEventOutcome, userId: number | null, mails: Mail[]): Promise<void> {
    await this.em.fork().transactional(async (tx) => {
      if (!(await this.events.markProcessed(tx, eventId, outcome, userId))) return; // another attempt finished it first: its e-mails went
      if (userId !== null) for (const mail of mails) this.outbox.record(tx, 'identity.account-email', { v: 1, userId, ...mail });
    });
  }
}

/** Who the event is about: the customer, and our user id when the object carries it. */
export function subjectOf(event: Stripe.Event): EventSubject {
  const object = event.data.object as unknown as Record<string, unknown>;
  const customerId = idOf(object.customer as string | { id: string } | null);
  const metadata = (object.metadata ?? {}) as Record<string, string>;
  if (event.type === 'checkout.session.completed') {
    return { customerId, userIdHint: (object.client_reference_id as string | null) ?? metadata.userId ?? null };
  }
  if (event.type.startsWith('invoice.')) {
    const parent = object.parent as { subscription_details?: { metadata?: Record<string, string> | null } | null } | null | undefined;
    return { customerId, userIdHint: parent?.subscription_details?.metadata?.userId ?? null };
  }
  return { customerId, userIdHint: metadata.userId ?? null };
}

function toUserId(value: string | null): number | null {
  if (!value || !/^[1-9]\d{0,9}$/.test(value)) return null;
  const id = Number(value);
  return id <= 2_147_483_647 ? id : null;
}

/** The e-mails an event asks for, judged on the subscription as Stripe has it now. */
function mailsFor(event: Stripe.Event, result: SyncResult): Mail[] {
  const subscription = result.subscription;
  if (!subscription) return [];
  if (event.type === 'customer.subscription.trial_will_end') {
    // Only while the trial still runs and will go on (not for a trial the user already cancelled).
    if (subscription.status !== 'trialing' || !subscription.trial_end || result.account.cancelAtPeriodEnd) return [];
    return [
      {
        email: 'email.trial-ending',
        content: { trialEnd: new Date(subscription.trial_end * 1000).toISOString(), cardOnFile: Boolean(subscription.default_payment_method) },
      },
    ];
  }
  if (event.type === 'invoice.payment_failed') {
    // Not when the payment went through since (the subscription is active again) or it ended.
    if (!['past_due', 'unpaid', 'incomplete'].includes(subscription.status)) return [];
    return [{ email: 'email.payment-failed', content: {} }];
  }
  return [];
}
