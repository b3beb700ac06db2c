import { Migration } from '@mikro-orm/migrations';

/**
 * Double opt-in. A lead of a page that asks visitors to confirm their e-mail is `pending` until its visitor
 * presses Confirm on the link they were e-mailed; every lead before this is `confirmed` (the default).
 * `confirmed_at`, `confirm_ip` and `confirm_user_agent` are the confirming request's (null for leads of pages
 * without double opt-in, which nobody confirmed by e-mail). `mailed_at` is when the last e-mail that a repeated
 * sign-up asked for was recorded (the confirmation again, or the file again), for their 10-minute throttle;
 * `reminded_at` when the one reminder went. The confirmation links' tokens are kept as hashes only, one row per
 * e-mail sent (each e-mail has its own link, and every link works until the lead is confirmed or removed).
 */
export class DoubleOptIn20261206 extends Migration {
  override async up() {
    this.addSql(`alter table leads.leads
      add column status varchar(10) not null default 'confirmed' check (status in ('pending', 'confirmed')),
      add column confirmed_at timestamptz null,
      add column confirm_ip varchar(45) null,
      add column confirm_user_agent varchar(500) null,
      add column mailed_at timestamptz null,
      add column reminded_at timestamptz null`);
    // Pending leads are few (a week at most): the stats' count and the sweep read them through this.
    this.addSql(`create index leads_pending_idx on leads.leads (page_id, created_at) where status = 'pending'`);
    this.addSql(`create table leads.confirm_tokens (
      token_hash varchar(100) primary key,
      lead_id integer not null references leads.leads (id) on delete cascade,
      created_at timestamptz not null default now()
    )`);
    this.addSql('create index confirm_tokens_lead_idx on leads.confirm_tokens (lead_id)');
  }
}
