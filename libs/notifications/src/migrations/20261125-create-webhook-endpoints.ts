import { Migration } from '@mikro-orm/migrations';

/**
 * The notifications service's own copy of each page's webhook endpoint, which deliveries read (the pages
 * service owns the endpoint and publishes every change: 'webhook-endpoint.changed'). Signing secrets stay sealed,
 * as the pages service stores them. A deleted page's row stays a while, marked deleted, so a change that
 * arrives late cannot bring it back. `changed_at` orders the changes of the endpoint. (This migration once
 * also wrote a queue message by name into the outbox, to fill the copy from endpoints that existed before it;
 * on a new database there are none, and no migration writes queue messages any more.)
 */
export class CreateWebhookEndpoints20261125 extends Migration {
  override async up() {
    this.addSql(`create table notifications.webhook_endpoints (
      page_id integer primary key,
      owner_id integer not null,
      url varchar(2048) null,
      secret varchar(1000) null,
      previous_secret varchar(1000) null,
      previous_secret_until timestamptz null,
      enabled boolean not null default true,
      enabled_at timestamptz null,
      deleted boolean not null default false,
      changed_at timestamptz not null,
      owner_is_pro boolean not null default false,
      plan_at timestamptz null
    )`);
  }
}
