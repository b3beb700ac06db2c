import { Injectable } from '@nestjs/common';
import { EntityManager } from '@mikro-orm/postgresql';
import type Stripe from 'stripe';

/** What came of an event (billing.stripe_events.outcome). */
export type StripeEventOutcome = 'applied' | 'unchanged' | 'stale' | 'unknown-customer' | 'ignored';

/** A stored Stripe event, as the billing worker reads it back. */
export interface StoredStripeEvent {
  id: string;
  type: string;
  created: Date;
  payload: Stripe.Event;
  processedAt: Date | null;
}

interface StoredEventRow {
  id: string;
  type: string;
  created: Date;
  payload: Stripe.Event;
  processed_at: Date | null;
}

/**
 * The billing service's only door to billing.stripe_events: every Stripe webhook event, stored once by its
 * id, then marked processed by the billing worker with what came of it.
 */
@Injectable()
export class StripeEventsRepository {
  constructor(private readonly em: EntityManager) {}

  /**
   * Stores the event with its exact body, once (in the intake's transaction): one the worker will handle
   * waits unprocessed, any other is stored as processed and ignored. False when it was stored before.
   */
  async insertOnce(tx: EntityManager, event: Stripe.Event, body: string | undefined, handled: boolean): Promise<boolean> {
    const rows = await tx.execute<{ id: string }[]>(
      `insert into billing.stripe_events (id, type, created, livemode, payload, processed_at, outcome)
       values (?, ?, to_timestamp(?), ?, ?::jsonb, ${handled ? 'null, null' : "now(), 'ignored'"})
       on conflict (id) do nothing returning id`,
      [event.id, event.type, event.created, event.livemode === true, body],
    );
    return rows.length > 0;
  }

  /** The stored event, read in a context of its own; null when none has this id. */
  async find(eventId: string): Promise<StoredStripeEvent | null> {
    const [row] = await this.em.fork().execute<StoredEventRow[]>(
      'select id, type, created, payload, processed_at from billing.stripe_events where id = ?',
      [eventId],
    );
    return row ? { id: row.id, type: row.type, created: row.created, payload: row.payload, processedAt: row.processed_at } : null;
  }

  /**
   * Marks the event processed with its outcome and user (in the worker's transaction), unless it already
   * was: false when another attempt finished it first.
   */
  async markProcessed(tx: EntityManager, eventId: string, outcome: StripeEventOutcome, userId: number | null): Promise<boolean> {
    const rows = await tx.execute<{ id: string }[]>(
      'update billing.stripe_events set processed_at = now(), outcome = ?, user_id = ? where id = ? and processed_at is null returning id',
      [outcome, userId, eventId],
    );
    return rows.length > 0;
  }
}
