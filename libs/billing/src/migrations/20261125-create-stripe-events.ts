import { Migration } from '@mikro-orm/migrations';

export class CreateStripeEvents20261125 extends Migration {
  override async up() {
    // Every Stripe webhook event, stored once by its id (a redelivery finds it and does nothing), then handled
    // by the billing worker ('billing.stripe-event'), which sets processed_at and what came of it.
    this.addSql(`create table billing.stripe_events (
      id varchar(255) primary key,
      type varchar(100) not null,
      created timestamptz not null,
      livemode boolean not null default false,
      payload jsonb not null,
      received_at timestamptz not null default now(),
      processed_at timestamptz null,
      outcome varchar(40) null,
      user_id integer null
    )`);
    // Events still waiting for the worker (an operator's question after an outage).
    this.addSql('create index stripe_events_unprocessed_idx on billing.stripe_events (received_at) where processed_at is null');
  }
}
