import { Migration } from '@mikro-orm/migrations';

/**
 * How each lead reached the page: `page` (the landing page's form), `embed` (embed.js on another site),
 * `html` (the plain-HTML form the editor hands out, posted from another site) or `api` (`POST
 * /api/v1/pages/{id}/leads`). Only `page` and `embed` leads come through a view Plink counted, so only they
 * count towards a conversion rate. Null for leads taken before (counted as they were: with the visits).
 */
export class LeadChannel20261211 extends Migration {
  override async up() {
    this.addSql('alter table leads.leads add column channel varchar(5) null');
  }
}
