import { Migration } from '@mikro-orm/migrations';

/**
 * The system account that owns Plink's example pages (see libs/pages' examples migration). Not a login:
 * its password hash is no argon2 hash, so no password matches it; its username has a dot, which no
 * registration may take; its address is under `.invalid` (never delivered). Id 0 is outside the id
 * sequence, so it never collides with an account and the pages service can name it without a lookup.
 */
export class CreateExamplesAccount20261125 extends Migration {
  override async up() {
    this.addSql(`insert into identity.users (id, username, email, password_hash, is_verified)
      values (0, 'plink.examples', 'examples@plink.invalid', '!no-login', true)
      on conflict do nothing`);
  }
}
