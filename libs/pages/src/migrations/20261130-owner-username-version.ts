import { Migration } from '@mikro-orm/migrations';

/**
 * The owners' copy of the username follows identity's 'user.renamed' (Settings → Account), ordered by identity's
 * username version: once a rename has reached the copy, only a newer rename changes it, never a save whose
 * request was read before the rename.
 */
export class OwnerUsernameVersion20261130 extends Migration {
  override async up() {
    this.addSql('alter table pages.owners add column username_version integer not null default 0');
  }
}
