import type { ServiceSchema } from '@plink/data';
import { CreatePages20261122 } from './migrations/20261122-create-pages';
import { AddPausedAt20261124 } from './migrations/20261124-add-paused-at';
import { WebhookEndpoint20261124 } from './migrations/20261124-webhook-endpoint';
import { CreateExamplePages20261125 } from './migrations/20261125-create-example-pages';
import { CreateOwners20261126 } from './migrations/20261126-create-owners';
import { OwnerPlanVersion20261128 } from './migrations/20261128-owner-plan-version';
import { OwnerProfileVersion20261130 } from './migrations/20261130-owner-profile-version';
import { DeliveryEmail20261130 } from './migrations/20261130-delivery-email';
import { RefuseThrowaway20261205 } from './migrations/20261205-refuse-throwaway';
import { DoubleOptIn20261206 } from './migrations/20261206-double-opt-in';
import { PageAnalytics20261208 } from './migrations/20261208-page-analytics';
import { TrashAndConsent20261211 } from './migrations/20261211-trash-and-consent';
import { PageSchema } from './model/page.entity';

/** The pages service's tables (schema "pages") and their migrations. */
export const PAGES_SCHEMA: ServiceSchema = {
  service: 'pages',
  entities: [PageSchema],
  migrations: [
    { name: '20261122_create_pages', class: CreatePages20261122 },
    { name: '20261124_add_paused_at', class: AddPausedAt20261124 },
    { name: '20261124_webhook_endpoint', class: WebhookEndpoint20261124 },
    { name: '20261125_create_example_pages', class: CreateExamplePages20261125 },
    { name: '20261126_create_owners', class: CreateOwners20261126 },
    { name: '20261128_owner_plan_version', class: OwnerPlanVersion20261128 },
    { name: '20261130_owner_profile_version', class: OwnerProfileVersion20261130 },
    { name: '20261130_delivery_email', class: DeliveryEmail20261130 },
    { name: '20261205_refuse_throwaway', class: RefuseThrowaway20261205 },
    { name: '20261206_double_opt_in', class: DoubleOptIn20261206 },
    { name: '20261208_page_analytics', class: PageAnalytics20261208 },
    { name: '20261211_trash_and_consent', class: TrashAndConsent20261211 },
  ],
};
