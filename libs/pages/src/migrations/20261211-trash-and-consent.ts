import { Migration } from '@mikro-orm/migrations';

export class TrashAndConsent20261211 extends Migration {
  override async up() {
    // A deleted page waits in its owner's Trash (14 days) before the purge removes it with its data.
    this.addSql('alter table pages.pages add column deleted_at timestamptz null');
    // The purge's pass reads the pages whose time is up, oldest first.
    this.addSql('create index pages_deleted_at_idx on pages.pages (deleted_at) where deleted_at is not null');
    // The creator's own privacy policy and name on the consent line.
    this.addSql('alter table pages.pages add column privacy_policy_url varchar(2048) null');
    this.addSql('alter table pages.pages add column controller_name varchar(100) null');
  }
}
