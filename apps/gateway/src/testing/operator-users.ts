import type { PlinkCommandUsers } from '@plink/billing';
import { IDENTITY_SCHEMA, IdentityUserDirectoryModule } from '@plink/identity';

/** Users for the operator's command in tests, as `apps/cli` composes them: identity's directory. */
export const identityUsers: PlinkCommandUsers = { module: IdentityUserDirectoryModule, schemas: [IDENTITY_SCHEMA] };
