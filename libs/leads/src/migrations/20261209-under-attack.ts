import { Migration } from '@mikro-orm/migrations';

/**
 * The "under attack" switch: accepted submissions counted per page and hour (as the refused ones are in
 * `blocked_submissions`: each process adds them up in memory and adds them here once a second, FloodWatch),
 * and the pages switched to confirm-by-e-mail: until when, and when their owner last ended it by hand (the
 * rule then waits an hour before it switches the page again).
 */
export class UnderAttack20261209 extends Migration {
  override async up() {
    this.addSql(`create table leads.accepted_submissions (
      page_id int not null,
      hour timestamptz not null,
      count bigint not null default 0,
      primary key (page_id, hour)
    )`);
    this.addSql(`create table leads.page_protection (
      page_id int primary key,
      under_attack_until timestamptz,
      ended_at timestamptz
    )`);
  }
}
