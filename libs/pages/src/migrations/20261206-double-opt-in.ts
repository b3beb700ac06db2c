import { Migration } from '@mikro-orm/migrations';

/** A page's double opt-in switch (off for every page there is: nothing changes for their visitors). */
export class DoubleOptIn20261206 extends Migration {
  override async up() {
    this.addSql('alter table pages.pages add column double_opt_in boolean not null default false');
  }
}
