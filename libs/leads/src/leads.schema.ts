import type { ServiceSchema } from '@plink/platform';
import { PageCounterSchema } from './leads/page-counter.entity';
import { LeadSchema } from './leads/lead.entity';
import { CreateLeads20261121 } from './migrations/20261121-create-leads';

/** The leads service's tables (schema "leads") and their migrations. */
export const LEADS_SCHEMA: ServiceSchema = {
  service: 'leads',
  entities: [LeadSchema, PageCounterSchema],
  migrations: [{ name: '20261121_create_leads', class: CreateLeads20261121 }],
};
