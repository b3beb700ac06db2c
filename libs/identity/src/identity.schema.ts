import type { ServiceSchema } from '@plink/data';
import { CreateUsers20261121 } from './migrations/20261121-create-users';
import { AddUserPlan20261123 } from './migrations/20261123-add-user-plan';
import { CreateExamplesAccount20261125 } from './migrations/20261125-create-examples-account';
import { AnnouncePageOwners20261126 } from './migrations/20261126-announce-page-owners';
import { PlanVersion20261128 } from './migrations/20261128-plan-version';
import { AccountChanges20261130 } from './migrations/20261130-account-changes';
import { ApiTokens20261210 } from './migrations/20261210-api-tokens';
import { AccountExports20261212 } from './migrations/20261212-account-exports';
import { UserSchema } from './users/user.entity';

/** The identity service's tables (schema "identity") and their migrations. */
export const IDENTITY_SCHEMA: ServiceSchema = {
  service: 'identity',
  entities: [UserSchema],
  migrations: [
    { name: '20261121_create_users', class: CreateUsers20261121 },
    { name: '20261123_add_user_plan', class: AddUserPlan20261123 },
    { name: '20261125_create_examples_account', class: CreateExamplesAccount20261125 },
    { name: '20261126_announce_page_owners', class: AnnouncePageOwners20261126 },
    { name: '20261128_plan_version', class: PlanVersion20261128 },
    { name: '20261130_account_changes', class: AccountChanges20261130 },
    { name: '20261210_api_tokens', class: ApiTokens20261210 },
    { name: '20261212_account_exports', class: AccountExports20261212 },
  ],
};
