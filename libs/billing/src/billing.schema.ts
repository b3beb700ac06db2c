import type { ServiceSchema } from '@plink/data';
import { BillingAccountSchema } from './accounts/billing-account.entity';
import { CreateBillingAccounts20261123 } from './migrations/20261123-create-billing-accounts';
import { AddDowngradedAt20261124 } from './migrations/20261124-add-downgraded-at';
import { AddLeadRemoval20261124 } from './migrations/20261124-add-lead-removal';
import { CreateStripeEvents20261125 } from './migrations/20261125-create-stripe-events';
import { CreateTrialsTaken20261126 } from './migrations/20261126-create-trials-taken';
import { OrderPlanWritesAndTrials20261127 } from './migrations/20261127-order-plan-writes-and-trials';
import { CustomerProfileVersion20261201 } from './migrations/20261201-customer-profile-version';
import { TrialsRemembered20261211 } from './migrations/20261211-trials-remembered';

/** The billing service's tables (schema "billing") and their migrations. */
export const BILLING_SCHEMA: ServiceSchema = {
  service: 'billing',
  entities: [BillingAccountSchema],
  migrations: [
    { name: '20261123_create_billing_accounts', class: CreateBillingAccounts20261123 },
    { name: '20261124_add_downgraded_at', class: AddDowngradedAt20261124 },
    { name: '20261124_add_lead_removal', class: AddLeadRemoval20261124 },
    { name: '20261125_create_stripe_events', class: CreateStripeEvents20261125 },
    { name: '20261126_create_trials_taken', class: CreateTrialsTaken20261126 },
    { name: '20261127_order_plan_writes_and_trials', class: OrderPlanWritesAndTrials20261127 },
    { name: '20261201_customer_profile_version', class: CustomerProfileVersion20261201 },
    { name: '20261211_trials_remembered', class: TrialsRemembered20261211 },
  ],
};
