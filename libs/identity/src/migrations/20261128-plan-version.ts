import { Migration } from '@mikro-orm/migrations';

/**
 * The user's copy of the plan is ordered by billing's plan version ('plan.changed' carries it), not by time:
 * the version counts the changes under billing's row lock, so it orders them even when clocks disagree. The
 * time it was ordered by goes.
 */
export class PlanVersion20261128 extends Migration {
  override async up() {
    this.addSql('alter table identity.users add column plan_version integer not null default 0, drop column plan_changed_at');
  }
}
