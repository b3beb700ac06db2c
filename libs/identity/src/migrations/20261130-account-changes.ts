import { Migration } from '@mikro-orm/migrations';

/**
 * Settings → Account: an e-mail change waits at the new address until its link is opened (the address, the
 * link's token hash and expiry), and the changes of username and e-mail are counted for the copies that keep
 * them.
 */
export class AccountChanges20261130 extends Migration {
  override async up() {
    this.addSql(`alter table identity.users
      add column pending_email varchar(254) null,
      add column email_change_token varchar(64) null,
      add column email_change_token_expiry timestamptz null,
      add column profile_version integer not null default 0`);
    this.addSql('create unique index users_email_change_token_key on identity.users (email_change_token) where email_change_token is not null');
  }
}
