import { Migration } from '@mikro-orm/migrations';

/**
 * Where each lead came from, as it arrived: the referring site's domain, the page address's `ref`, `source`
 * and UTM values, and the device class (desktop, phone, tablet). Null for leads taken before, and for what a
 * sign-up did not tell. Cut to 100 characters like the page analytics' values.
 */
export class LeadSource20261208 extends Migration {
  override async up() {
    this.addSql(`alter table leads.leads
      add column referrer varchar(100) null,
      add column ref varchar(100) null,
      add column ref_source varchar(100) null,
      add column utm_source varchar(100) null,
      add column utm_medium varchar(100) null,
      add column utm_campaign varchar(100) null,
      add column device varchar(8) null`);
  }
}
