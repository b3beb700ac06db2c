import { Migration } from '@mikro-orm/migrations';

/**
 * A page's analytics, aggregates only (no row per view): per UTC day its views and unique visitors, and per
 * day, kind (referrer, utm_source, utm_medium, utm_campaign, device) and value the views from there — at
 * most 50 values per page, day and kind, the rest added up under "other". Deleting a page deletes them.
 */
export class PageAnalytics20261208 extends Migration {
  override async up() {
    this.addSql(`create table pages.page_days (
      page_id integer not null references pages.pages (id) on delete cascade,
      day date not null,
      views integer not null default 0,
      uniques integer not null default 0,
      primary key (page_id, day)
    )`);
    this.addSql(`create table pages.page_sources (
      page_id integer not null references pages.pages (id) on delete cascade,
      day date not null,
      kind varchar(16) not null,
      value varchar(100) not null,
      views integer not null default 0,
      primary key (page_id, day, kind, value)
    )`);
    // Batches of buffered analytics already applied (as pages.view_flushes for the views).
    this.addSql(`create table pages.analytics_flushes (
      batch_id varchar(64) primary key,
      flushed_at timestamptz not null default now()
    )`);
  }
}
