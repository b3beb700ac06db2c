import { Migration } from '@mikro-orm/migrations';

export class AddPausedAt20261124 extends Migration {
  override async up() {
    // Set while the page is paused after its owner's downgrade (a Free owner keeps one page live).
    this.addSql('alter table pages.pages add column paused_at timestamptz null');
  }
}
