import { Migration } from '@mikro-orm/migrations';

/** The user's copy of the plan billing decides (applied from billing's 'plan.changed'). */
export class AddUserPlan20261123 extends Migration {
  override async up() {
    this.addSql(`alter table identity.users
      add column plan_status varchar(20) not null default 'none'
        check (plan_status in ('none', 'trialing', 'active', 'past_due', 'canceled', 'paused')),
      add column plan_period_end timestamptz null,
      add column plan_changed_at timestamptz null`);
  }
}
