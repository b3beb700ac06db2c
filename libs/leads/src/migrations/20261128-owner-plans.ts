import { Migration } from '@mikro-orm/migrations';

/**
 * The leads service decides at capture whether a lead goes to the page's webhook: the page's webhook is on
 * (`page.changed`) and its owner is on Pro. The owner's plan is kept here from billing's own 'plan.changed'
 * (one hop, ordered by billing's plan version), and each lead keeps the version its capture read, the plan
 * in force for it.
 */
export class OwnerPlans20261128 extends Migration {
  override async up() {
    this.addSql(`create table leads.owner_plans (
      owner_id integer primary key,
      is_pro boolean not null,
      version integer not null
    )`);
    this.addSql('alter table leads.page_facts rename column sends_webhook to webhook_on');
    this.addSql('alter table leads.leads add column plan_version integer null');
  }
}
