export { IDENTITY_SCHEMA } from './identity.schema';
export { IdentityDemoModule, IdentityHttpModule, IdentityReadModule, IdentitySessionsModule, IdentityUserDirectoryModule, IdentityWorkerModule } from './identity.module';
export { IdentityDirectory, type UserContact } from './directory/identity-directory';
export { SESSION_COOKIE } from './sessions/session.store';
export type { User } from './users/user.entity';
export { DEMO_CREATOR, IdentityDemo, type DemoCreator } from './demo/demo-creator';
