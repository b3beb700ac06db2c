import { Migration } from '@mikro-orm/migrations';

export class CreateTrialsTaken20261126 extends Migration {
  override async up() {
    // The free trial is offered once per person, not per account: every trial that started, with what tells
    // its person apart (the hash of the normalised e-mail, the card's fingerprint, the Stripe customer).
    // One row per subscription; a card added later during the trial fills its fingerprint in. Only a trial
    // that started earlier counts against a subscription (the first trial of a person is never the one ended).
    this.addSql(`create table billing.trials_taken (
      stripe_subscription_id varchar(100) primary key,
      user_id integer not null,
      person_key varchar(64) null,
      card_fingerprint varchar(100) null,
      stripe_customer_id varchar(100) null,
      trial_started_at timestamptz not null
    )`);
    this.addSql('create index trials_taken_person_key_idx on billing.trials_taken (person_key) where person_key is not null');
    this.addSql('create index trials_taken_card_fingerprint_idx on billing.trials_taken (card_fingerprint) where card_fingerprint is not null');
    this.addSql('create index trials_taken_stripe_customer_id_idx on billing.trials_taken (stripe_customer_id) where stripe_customer_id is not null');
    // The trials taken before this table: known by their customer only.
    this.addSql(`insert into billing.trials_taken (stripe_subscription_id, user_id, stripe_customer_id, trial_started_at)
      select coalesce(stripe_subscription_id, 'unknown-' || user_id), user_id, stripe_customer_id, coalesce(trial_end - interval '14 days', updated_at)
      from billing.accounts where trial_used
      on conflict do nothing`);
    // The person an account's checkouts are for (set by each checkout), and its open Checkout Session: a
    // second checkout while it is open answers it again instead of opening another (two subscriptions).
    this.addSql('alter table billing.accounts add column person_key varchar(64) null');
    this.addSql('alter table billing.accounts add column checkout_session_id varchar(255) null');
    this.addSql('alter table billing.accounts add column checkout_expires_at timestamptz null');
    this.addSql('alter table billing.accounts add column checkout_with_trial boolean null');
  }
}
