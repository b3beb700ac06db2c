import { Migration } from '@mikro-orm/migrations';

/**
 * What the pages service keeps of each page owner: the username (the `/p/{username}/{slug}` address and
 * the page's author when none is set) and the plan (the rules a visitor's page follows, and which pages a
 * Free owner keeps live). Identity owns the users and billing the plan; this copy follows the signed-in
 * creator's own saves and billing's plan changes (see 20261128_owner_plan_version). The examples account is known by its fixed id (identity's 20261125_create_examples_account).
 */
export class CreateOwners20261126 extends Migration {
  override async up() {
    this.addSql(`create table pages.owners (
      user_id integer primary key,
      username varchar(30) not null,
      is_premium boolean not null default false,
      plan_changed_at timestamptz null,
      updated_at timestamptz not null default now()
    )`);
    this.addSql(`insert into pages.owners (user_id, username, is_premium) values (0, 'plink.examples', false) on conflict do nothing`);
  }
}
