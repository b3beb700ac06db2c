import { Migration } from '@mikro-orm/migrations';

/**
 * The copy of the endpoints no longer keeps the owner's plan: whether a lead goes to the webhook is decided at
 * its capture by the leads service, from billing's 'plan.changed', and a delivery is not judged again.
 */
export class EndpointsWithoutPlan20261128 extends Migration {
  override async up() {
    this.addSql('alter table notifications.webhook_endpoints drop column owner_is_pro, drop column plan_at');
  }
}
