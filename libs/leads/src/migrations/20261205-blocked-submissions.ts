import { Migration } from '@mikro-orm/migrations';

/**
 * Submissions the bot shield refused, counted per page and reason (token, timing, honeypot, disposable,
 * noMx, rateLimit): nothing of a refused submission is stored but this count. Each process adds up its
 * refusals in memory and adds them here once a second (BlockedCounter).
 */
export class BlockedSubmissions20261205 extends Migration {
  override async up() {
    this.addSql(`create table leads.blocked_submissions (
      page_id int not null,
      reason varchar(20) not null,
      count bigint not null default 0,
      primary key (page_id, reason)
    )`);
  }
}
