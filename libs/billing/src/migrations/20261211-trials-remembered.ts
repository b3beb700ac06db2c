import { Migration } from '@mikro-orm/migrations';

/**
 * What billing keeps of a trial when its account is deleted: a keyed hash of the address that took it
 * (HMAC under a key derived from SESSION_SECRET, over the trial's person key), nothing else — no user, no
 * date, no card, no customer — so the same address cannot take the free trial again with a new account.
 */
export class TrialsRemembered20261211 extends Migration {
  override async up() {
    this.addSql('create table billing.trials_remembered (person_hash varchar(64) primary key)');
  }
}
