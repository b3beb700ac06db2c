import { Migration } from '@mikro-orm/migrations';

/**
 * The page's delivery e-mail (the e-mail a visitor gets with the file link): sender name, reply-to, subject
 * and rich text, each null for "the standard one". The owners' copy keeps the owner's account e-mail, as the
 * creator's own saves carry it (like the username): it is the reply-to when the page names none, carried in
 * 'page.changed' to the leads service, which puts it on the e-mail job; the notifications service reads no
 * account, so the address travels with the page rather than through identity at send time (one hop fewer).
 */
export class DeliveryEmail20261130 extends Migration {
  override async up() {
    this.addSql(`alter table pages.pages
      add column email_sender_name varchar(100) null,
      add column email_reply_to varchar(254) null,
      add column email_subject varchar(200) null,
      add column email_body text null`);
    this.addSql('alter table pages.owners add column email varchar(254) null');
  }
}
