import { Migration } from '@mikro-orm/migrations';

/**
 * The page's bot-shield setting "Refuse throwaway addresses": on by default, so every page (existing ones
 * included) refuses sign-ups from throwaway domains and from domains that receive no mail.
 */
export class RefuseThrowaway20261205 extends Migration {
  override async up() {
    this.addSql('alter table pages.pages add column refuse_throwaway boolean not null default true');
  }
}
