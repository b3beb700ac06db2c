import { Migration } from '@mikro-orm/migrations';

/**
 * How many hook subscriptions (`/api/v1/hooks`) each owner has, from the notifications service's
 * 'hooks.changed': a capture reads it with its page's facts and its owner's plan (the same statement), so an
 * owner without hooks costs a submission nothing more.
 */
export class OwnerHooks20261210 extends Migration {
  override async up() {
    this.addSql(`create table leads.owner_hooks (
      owner_id integer primary key,
      hooks integer not null,
      version integer not null
    )`);
  }
}
