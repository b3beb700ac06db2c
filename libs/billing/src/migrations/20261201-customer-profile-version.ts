import { Migration } from '@mikro-orm/migrations';

export class CustomerProfileVersion20261201 extends Migration {
  override async up() {
    // The newest 'user.changed' whose e-mail was given to the user's Stripe customer: an older change that
    // runs late (a retry after a Stripe outage) must not put back the address the newer one replaced.
    this.addSql('alter table billing.accounts add column profile_version integer not null default 0');
  }
}
