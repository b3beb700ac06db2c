import { Migration } from '@mikro-orm/migrations';

/**
 * The page's delivery e-mail as 'page.changed' carries it (sender name, reply-to, subject, sanitised text): a
 * capture copies it onto the lead's file e-mail job. Null for pages whose facts came before it: the standard e-mail.
 */
export class DeliveryEmail20261130 extends Migration {
  override async up() {
    this.addSql('alter table leads.page_facts add column delivery_email jsonb null');
  }
}
