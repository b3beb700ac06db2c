import { Global, Module } from '@nestjs/common';
import { PassportModule } from '@nestjs/passport';
import { AccountDataController } from './account-data/account-data.controller';
import { AccountExportsService } from './account-data/account-exports.service';
import { AccountPassword } from './account-data/account-password';
import { DeleteAccountService } from './account-data/delete-account.service';
import { IdentityDemo } from './demo/demo-creator';
import { IdentityDirectory } from './directory/identity-directory';
import { IdentityController } from './http/identity.controller';
import { LocalStrategy } from './http/local.strategy';
import { LoginGuard } from './http/login.guard';
import { ApplyPlanChangeService } from './plans/apply-plan-change.service';
import { IdentityProcessor } from './plans/identity.processor';
import { ApiTokenGuard, ApiTokenLookup, SessionLookup } from '@plink/http';
import { IdentityApiTokenLookup } from './api-tokens/api-token-lookup';
import { ApiTokenChanges, ApiTokens } from './api-tokens/api-tokens';
import { ApiTokensController, MeV1Controller } from './api-tokens/api-tokens.controller';
import { UserDirectory } from '@plink/contracts';
import { IdentitySessionLookup } from './sessions/session.guard';
import { SessionStore } from './sessions/session.store';
import { AccountEmailService } from './use-cases/account-email.service';
import { AuthRateLimits } from './use-cases/auth-rate-limits';
import { ChangeEmailService } from './use-cases/change-email.service';
import { ChangeUsernameService } from './use-cases/change-username.service';
import { EmailedTokens } from './use-cases/emailed-tokens';
import { LogInService } from './use-cases/log-in.service';
import { RegisterUserService } from './use-cases/register-user.service';
import { RequestPasswordResetService } from './use-cases/request-password-reset.service';
import { ResendVerificationService } from './use-cases/resend-verification.service';
import { ResetPasswordService } from './use-cases/reset-password.service';
import { UpdatePasswordService } from './use-cases/update-password.service';
import { VerifyEmailService } from './use-cases/verify-email.service';
import { PasswordHasher } from './users/password-hasher';
import { UsersRepository } from './users/users.repository';

/** Identity's read side, for other services: who a user is. */
@Module({
  providers: [UsersRepository, SessionStore, IdentityDirectory],
  exports: [UsersRepository, SessionStore, IdentityDirectory],
})
export class IdentityReadModule {}

/**
 * Who a user is, for services that must not import identity: identity's answer to the contracts'
 * `UserDirectory` port, provided globally. Imported where identity is composed with such a service (the
 * gateway through IdentitySessionsModule, the operator's command line).
 */
@Global()
@Module({
  imports: [IdentityReadModule],
  providers: [{ provide: UserDirectory, useExisting: IdentityDirectory }],
  exports: [UserDirectory],
})
export class IdentityUserDirectoryModule {}

/**
 * Who is signed in: identity's implementation of the `SessionLookup` port of `@plink/http`, provided globally so
 * every service's `SignedInGuard` finds it (with the `UserDirectory` port). Imported where an HTTP app is
 * composed (the gateway).
 */
@Global()
@Module({
  imports: [IdentityReadModule, IdentityUserDirectoryModule],
  providers: [{ provide: SessionLookup, useClass: IdentitySessionLookup }, ApiTokenChanges, { provide: ApiTokenLookup, useClass: IdentityApiTokenLookup }, ApiTokenGuard],
  exports: [SessionLookup, ApiTokenChanges, ApiTokenLookup, ApiTokenGuard],
})
export class IdentitySessionsModule {}

/** Identity's HTTP calls, mounted by the gateway. */
@Module({
  imports: [PassportModule, IdentityReadModule, IdentitySessionsModule],
  controllers: [IdentityController, ApiTokensController, MeV1Controller, AccountDataController],
  providers: [
    ApiTokens,
    PasswordHasher,
    AuthRateLimits,
    EmailedTokens,
    LocalStrategy,
    LoginGuard,
    LogInService,
    RegisterUserService,
    VerifyEmailService,
    ResendVerificationService,
    RequestPasswordResetService,
    ResetPasswordService,
    UpdatePasswordService,
    ChangeEmailService,
    ChangeUsernameService,
    AccountPassword,
    DeleteAccountService,
    AccountExportsService,
  ],
})
export class IdentityHttpModule {}

/** Identity's workers: the identity queue (plan changes published by billing, copied onto the user; account e-mails addressed). */
@Module({ imports: [IdentityReadModule], providers: [ApplyPlanChangeService, AccountEmailService, AccountExportsService, IdentityProcessor] })
export class IdentityWorkerModule {}

/** Identity's part of the demo seed (the demo creator's account), composed by the gateway in development only. */
@Module({ imports: [IdentityReadModule], providers: [PasswordHasher, IdentityDemo], exports: [IdentityDemo] })
export class IdentityDemoModule {}
