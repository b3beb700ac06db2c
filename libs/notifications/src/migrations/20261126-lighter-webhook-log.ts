import { Migration } from '@mikro-orm/migrations';

/**
 * The webhook log written for every delivered lead, made lighter to write: the attempts no longer reference
 * their message by a foreign key (its check locked the message row on every attempt logged, and its cascade
 * deleted each trimmed message's attempts one message at a time); the log's own statements delete a message's
 * attempts with it, in one statement, and the hourly clean-up drops any attempt left without its message. Two
 * indexes that only the clean-up and the failure checks read go: the clean-up scans the table (a page keeps
 * 100 messages at most), and a page's attempts are found through its messages.
 */
export class LighterWebhookLog20261126 extends Migration {
  override async up() {
    this.addSql('alter table notifications.webhook_attempts drop constraint if exists webhook_attempts_message_id_fkey');
    this.addSql('drop index if exists notifications.webhook_attempts_page_idx');
    this.addSql('drop index if exists notifications.webhook_messages_created_idx');
  }
}
