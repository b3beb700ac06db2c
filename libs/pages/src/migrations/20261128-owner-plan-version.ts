import { Migration } from '@mikro-orm/migrations';

/**
 * The owners' copy of the plan follows billing's 'plan.changed' directly, ordered by billing's plan version.
 * A plan may arrive before the owner's first save (which brings the username): such a row has no username.
 * The time the copy was ordered by goes.
 */
export class OwnerPlanVersion20261128 extends Migration {
  override async up() {
    this.addSql(
      'alter table pages.owners add column plan_version integer not null default 0, alter column username drop not null, drop column plan_changed_at',
    );
  }
}
