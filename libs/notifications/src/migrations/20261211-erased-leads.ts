import { Migration } from '@mikro-orm/migrations';

/**
 * Leads their creator deleted (the leads service's 'leads.deleted'): a delivery of one that is still queued or
 * waiting for a retry finds it here and is not sent. Kept 30 days (longer than any delivery waits), then
 * dropped by the log's clean-up.
 */
export class ErasedLeads20261211 extends Migration {
  override async up() {
    this.addSql(`create table notifications.erased_leads (
      page_id integer not null,
      lead_id integer not null,
      erased_at timestamptz not null default now(),
      primary key (page_id, lead_id)
    )`);
  }
}
