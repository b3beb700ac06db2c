import { Migration } from '@mikro-orm/migrations';

export class OrderPlanWritesAndTrials20261127 extends Migration {
  override async up() {
    // Counts the stored plan's changes: a change worked out from what Stripe answered is stored only if no
    // other change was stored since that answer was asked for (else it is read again), so an answer that
    // was on its way while the user cancelled cannot put back what the cancel replaced.
    this.addSql('alter table billing.accounts add column plan_version integer not null default 0');
    // The order trials were recorded in: two trials of one person can start in the same second (Stripe's
    // times are in seconds), and the one recorded first is the one kept.
    this.addSql('alter table billing.trials_taken add column recorded_seq bigint generated always as identity');
  }
}
