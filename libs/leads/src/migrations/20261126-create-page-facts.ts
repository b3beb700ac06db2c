import { Migration } from '@mikro-orm/migrations';

/**
 * The leads service's own copy of the page facts a submission needs (see PageFactsRepository), kept by the
 * pages service's 'page.changed' events. A deleted page stays as a row marked `deleted` (its last
 * slug kept), so that a late event about it cannot bring it back.
 *
 * Pages that exist before this table are not copied here: the public page a submission answers with is
 * built by the pages service's own rules (the owner's plan applied), which SQL over its tables would have to
 * repeat. They are filled on first use instead: a submission for a slug this table does not know asks the
 * pages service through the port the gateway binds (PageFactsFallback) and keeps its answer here.
 */
export class CreatePageFacts20261126 extends Migration {
  override async up() {
    this.addSql(`create table leads.page_facts (
      page_id integer primary key,
      slug varchar(200) null,
      owner_id integer null,
      owner_username varchar(100) null,
      paused boolean not null default false,
      file_url text,
      sends_webhook boolean not null default false,
      public jsonb null,
      deleted boolean not null default false,
      version bigint not null
    )`);
    this.addSql('create index page_facts_slug_idx on leads.page_facts (lower(slug)) where not deleted');
  }
}
