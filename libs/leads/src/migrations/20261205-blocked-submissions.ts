import { Migration } from '@mikro-orm/migrations';

/**
 * Submissions the bot shield refused, counted per page, reason (token, timing, honeypot, disposable, noMx,
 * rateLimit) and hour: nothing of a refused submission is stored but this count. Each process adds up its
 * refusals in memory and adds them here once a second (BlockedCounter). The stats sum the hours; the hours
 * are there for rules about a page's recent refusals (how many in the last hour).
 */
export class BlockedSubmissions20261205 extends Migration {
  override async up() {
    this.addSql(`create table leads.blocked_submissions (
      page_id int not null,
      reason varchar(20) not null,
      hour timestamptz not null,
      count bigint not null default 0,
      primary key (page_id, reason, hour)
    )`);
  }
}
