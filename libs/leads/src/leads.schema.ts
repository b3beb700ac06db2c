import { OwnerHooks20261210 } from './migrations/20261210-owner-hooks';
import type { ServiceSchema } from '@plink/data';
import { PageCounterSchema } from './model/page-counter.entity';
import { LeadSchema } from './model/lead.entity';
import { CreateLeads20261121 } from './migrations/20261121-create-leads';
import { CreatePageFacts20261126 } from './migrations/20261126-create-page-facts';
import { OwnerPlans20261128 } from './migrations/20261128-owner-plans';
import { DeliveryEmail20261130 } from './migrations/20261130-delivery-email';
import { BlockedSubmissions20261205 } from './migrations/20261205-blocked-submissions';
import { DoubleOptIn20261206 } from './migrations/20261206-double-opt-in';
import { ConsentRecord20261207 } from './migrations/20261207-consent-record';
import { LeadSource20261208 } from './migrations/20261208-lead-source';
import { UnderAttack20261209 } from './migrations/20261209-under-attack';
import { LeadChannel20261211 } from './migrations/20261211-lead-channel';

/** The leads service's tables (schema "leads") and their migrations. */
export const LEADS_SCHEMA: ServiceSchema = {
  service: 'leads',
  entities: [LeadSchema, PageCounterSchema],
  migrations: [
    { name: '20261121_create_leads', class: CreateLeads20261121 },
    { name: '20261126_create_page_facts', class: CreatePageFacts20261126 },
    { name: '20261128_owner_plans', class: OwnerPlans20261128 },
    { name: '20261130_delivery_email', class: DeliveryEmail20261130 },
    { name: '20261205_blocked_submissions', class: BlockedSubmissions20261205 },
    { name: '20261206_double_opt_in', class: DoubleOptIn20261206 },
    { name: '20261207_consent_record', class: ConsentRecord20261207 },
    { name: '20261208_lead_source', class: LeadSource20261208 },
    { name: '20261209_under_attack', class: UnderAttack20261209 },
    { name: '20261210_owner_hooks', class: OwnerHooks20261210 },
    { name: '20261211_lead_channel', class: LeadChannel20261211 },
  ],
};
