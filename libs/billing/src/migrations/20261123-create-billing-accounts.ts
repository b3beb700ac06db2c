import { Migration } from '@mikro-orm/migrations';

export class CreateBillingAccounts20261123 extends Migration {
  override async up() {
    // user_id is identity's user id; no foreign key across services' schemas (each owns its own tables).
    this.addSql(`create table billing.accounts (
      user_id integer primary key,
      stripe_customer_id varchar(100) null,
      stripe_subscription_id varchar(100) null,
      status varchar(20) not null default 'none'
        check (status in ('none', 'trialing', 'active', 'past_due', 'canceled', 'paused')),
      trial_used boolean not null default false,
      current_period_end timestamptz null,
      trial_end timestamptz null,
      cancel_at_period_end boolean not null default false,
      source varchar(20) null check (source in ('stripe', 'operator')),
      operator_expires_at timestamptz null,
      is_premium boolean not null default false,
      last_event_at timestamptz null,
      updated_at timestamptz not null default now()
    )`);
    this.addSql('create unique index accounts_stripe_customer_id_key on billing.accounts (stripe_customer_id) where stripe_customer_id is not null');
    // The expiry job's walk: running operator grants with an end.
    this.addSql(
      "create index accounts_operator_expiry_idx on billing.accounts (operator_expires_at) where source = 'operator' and is_premium and operator_expires_at is not null",
    );
  }
}
