import { Migration } from '@mikro-orm/migrations';

/**
 * A page's webhook endpoint beside its URL: the signing secret, sealed (and the previous one, which still signs
 * for 24 hours after a rotation), and whether Plink turned it off (410 Gone, or it kept failing) and why.
 * `webhook_enabled_at`: when the current URL started receiving (saved, or turned back on); failures before
 * it do not count against it.
 */
export class WebhookEndpoint20261124 extends Migration {
  override async up() {
    this.addSql(`alter table pages.pages
      add column webhook_secret varchar(200) null,
      add column webhook_previous_secret varchar(200) null,
      add column webhook_previous_secret_until timestamptz null,
      add column webhook_enabled_at timestamptz null,
      add column webhook_disabled_at timestamptz null,
      add column webhook_disabled_reason varchar(20) null`);
  }
}
