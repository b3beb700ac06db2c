import { Migration } from '@mikro-orm/migrations';

/**
 * The owners' copy of the username and e-mail follows identity's 'user.changed' (Settings → Account), ordered by
 * identity's profile version: once a change has reached the copy, only a newer one changes it, never a save
 * whose request was read before the change.
 */
export class OwnerProfileVersion20261130 extends Migration {
  override async up() {
    this.addSql('alter table pages.owners add column profile_version integer not null default 0');
  }
}
