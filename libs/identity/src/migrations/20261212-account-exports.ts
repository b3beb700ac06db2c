import { Migration } from '@mikro-orm/migrations';

/**
 * Settings → Account → Export my data: one row per export asked for, while its ZIP is built (`pending`), once it
 * is stored (`ready`: its storage key and size, until when it is kept) or when building it failed. Removed with
 * the user (`on delete cascade`), and by the hourly sweep 24 hours after it was asked for.
 */
export class AccountExports20261212 extends Migration {
  override async up() {
    this.addSql(`create table identity.account_exports (
      id uuid primary key,
      user_id integer not null references identity.users (id) on delete cascade,
      status varchar(10) not null default 'pending' check (status in ('pending', 'ready', 'failed')),
      storage_key varchar(200) null,
      size bigint null,
      created_at timestamptz not null default now(),
      expires_at timestamptz null
    )`);
    this.addSql('create index account_exports_user_idx on identity.account_exports (user_id, created_at desc)');
  }
}
