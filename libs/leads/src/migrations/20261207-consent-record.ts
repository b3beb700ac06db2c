import { Migration } from '@mikro-orm/migrations';

/**
 * Each lead's proof of consent: whether a consent text was shown, which one (the SHA-256 of its exact words;
 * the words themselves once per distinct text in `leads.consent_texts`), the privacy link beside it, and the
 * visitor's IP address and user agent at sign-up (only with LEAD_EVIDENCE=full). Null on leads taken before
 * it was kept: nothing is made up for them.
 */
export class ConsentRecord20261207 extends Migration {
  override async up() {
    this.addSql(`create table leads.consent_texts (
      version varchar(64) primary key,
      text text not null,
      first_recorded_at timestamptz not null default now()
    )`);
    this.addSql(`alter table leads.leads
      add column consent_shown boolean null,
      add column consent_version varchar(64) null,
      add column privacy_url varchar(2048) null,
      add column signup_ip inet null,
      add column signup_user_agent varchar(512) null`);
  }
}
