export { IDENTITY_SCHEMA } from './identity.schema';
export { IdentityHttpModule, IdentityReadModule, IdentityWorkerModule } from './identity.module';
export { IdentityDirectory, type UserContact } from './directory/identity-directory';
export { SignedInGuard, CurrentUser, type AuthedRequest } from './sessions/session.guard';
export { SESSION_COOKIE } from './sessions/session.store';
export type { User } from './users/user.entity';
