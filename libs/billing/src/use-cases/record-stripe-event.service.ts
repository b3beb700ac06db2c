import { BadRequestException, Injectable } from '@nestjs/common';
import { EntityManager } from '@mikro-orm/postgresql';
import type Stripe from 'stripe';
import { BillingMessages } from '@plink/contracts';
import { Outbox } from '@plink/queue';
import { getLogger } from '@plink/observability';
import { StripeConnection } from '../stripe/stripe-client';
import { HANDLED_STRIPE_EVENTS } from '../stripe/stripe-events';
import { StripeEventsRepository } from '../stripe/stripe-events.repository';

export interface RecordedStripeEvent {
  eventId: string;
  type: string;
  /** False for a redelivery of an event stored before: nothing was recorded. */
  stored: boolean;
}

/**
 * The intake of Stripe's webhook (POST /api/webhooks/stripe): checks the `Stripe-Signature` of the exact
 * body with STRIPE_WEBHOOK_SECRET (a missing or wrong one, or no secret configured: 400, nothing stored),
 * then stores the event once by its id and, in the same transaction, records the 'billing.stripe-event' job
 * through the outbox. The billing worker does the rest, so the answer is quick, and a Redis outage only
 * delays the job. A redelivered event is answered 200 and records nothing.
 */
@Injectable()
export class RecordStripeEventService {
  constructor(
    private readonly stripe: StripeConnection,
    private readonly em: EntityManager,
    private readonly events: StripeEventsRepository,
    private readonly outbox: Outbox,
  ) {}

  async execute(body: string | undefined, signature: string | string[] | undefined): Promise<RecordedStripeEvent> {
    const event = this.verify(body, signature);
    const handled = HANDLED_STRIPE_EVENTS.has(event.type);
    const stored = await this.em.fork().transactional(async (tx) => {
      if (!(await this.events.insertOnce(tx, event, body, handled))) return false;
      if (handled) this.outbox.record(tx, 'billing.stripe-event', { v: 1, eventId: event.id });
      return true;
    });
    getLogger().info({ eventId: event.id, type: event.type, stored, handled }, stored ? 'stripe event received' : 'stripe event received again: nothing to do');
    return { eventId: event.id, type: event.type, stored };
  }

  private verify(body: string | undefined, signature: string | string[] | undefined): Stripe.Event {
    const secret = this.stripe.webhookSecret;
    if (!secret || !this.stripe.configured || typeof body !== 'string' || typeof signature !== 'string' || signature.length > 2_000) {
      getLogger().warn({ configured: Boolean(secret) && this.stripe.configured, signed: typeof signature === 'string' }, 'stripe webhook refused: no signature or no secret');
      throw new BadRequestException({ message: BillingMessages.webhookSignatureInvalid });
    }
    let event: Stripe.Event;
    try {
      event = this.stripe.api.webhooks.constructEvent(body, signature, secret);
    } catch (err) {
      getLogger().warn({ reason: (err as Error).message }, 'stripe webhook refused: signature does not match');
      throw new BadRequestException({ message: BillingMessages.webhookSignatureInvalid });
    }
    if (typeof event?.id !== 'string' || event.id.length === 0 || event.id.length > 255 || typeof event.type !== 'string' || typeof event.created !== 'number') {
      throw new BadRequestException({ message: BillingMessages.webhookSignatureInvalid });
    }
    return event;
  }
}
