import type { ServiceSchema } from '@plink/platform';
import { BillingAccountSchema } from './accounts/billing-account.entity';
import { CreateBillingAccounts20261123 } from './migrations/20261123-create-billing-accounts';

/** The billing service's tables (schema "billing") and their migrations. */
export const BILLING_SCHEMA: ServiceSchema = {
  service: 'billing',
  entities: [BillingAccountSchema],
  migrations: [{ name: '20261123_create_billing_accounts', class: CreateBillingAccounts20261123 }],
};
