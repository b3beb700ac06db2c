import { Migration } from '@mikro-orm/migrations';

/**
 * The pages service keeps its own copy of what it needs of a page owner (username, plan), fed by the
 * 'pages.owner-plan-changed' jobs identity records. For the users that exist when that copy starts, this
 * records one such job each, through the outbox (relayed by any Plink process once committed), so the
 * pages service learns every existing owner as identity has them. The examples account (id 0) is not
 * announced: the pages service knows it by its fixed id.
 */
export class AnnouncePageOwners20261126 extends Migration {
  override async up() {
    this.addSql(`insert into platform.outbox (id, queue, job_name, payload, correlation_id)
      select gen_random_uuid(), 'pages', 'pages.owner-plan-changed',
        jsonb_build_object(
          'v', 1,
          'userId', id,
          'username', username,
          'isPremium', is_premium,
          'changedAt', to_char(plan_changed_at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')
        ),
        'identity-announce-page-owners'
      from identity.users
      where id > 0`);
  }
}
