import { Migration } from '@mikro-orm/migrations';

export class AddLeadRemoval20261124 extends Migration {
  override async up() {
    // The 30-day removal of paused pages' leads after a downgrade: when the warning e-mail was recorded
    // (it goes once) and when the removal was (it happens once). Both are cleared whenever Pro starts or ends.
    this.addSql('alter table billing.accounts add column lead_removal_warned_at timestamptz null');
    this.addSql('alter table billing.accounts add column leads_removed_at timestamptz null');
  }
}
