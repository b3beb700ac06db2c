import { Migration } from '@mikro-orm/migrations';

export class AddDowngradedAt20261124 extends Migration {
  override async up() {
    // When Pro last ended; cleared when Pro starts again. The downgrade rules (paused pages, the removal of
    // their leads 30 days later) count from it.
    this.addSql('alter table billing.accounts add column downgraded_at timestamptz null');
    this.addSql('create index accounts_downgraded_at_idx on billing.accounts (downgraded_at) where downgraded_at is not null');
  }
}
