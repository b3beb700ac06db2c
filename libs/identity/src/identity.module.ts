import { Module } from '@nestjs/common';
import { PassportModule } from '@nestjs/passport';
import { IdentityDirectory } from './directory/identity-directory';
import { IdentityController } from './http/identity.controller';
import { LocalStrategy } from './http/local.strategy';
import { LoginGuard } from './http/login.guard';
import { ApplyPlanChangeService } from './plans/apply-plan-change.service';
import { IdentityProcessor } from './plans/identity.processor';
import { SignedInGuard } from './sessions/session.guard';
import { SessionStore } from './sessions/session.store';
import { AuthRateLimits } from './use-cases/auth-rate-limits';
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

/** Identity's read side, for other services: who a user is, and whether they are signed in. */
@Module({
  providers: [UsersRepository, SessionStore, SignedInGuard, IdentityDirectory],
  exports: [UsersRepository, SessionStore, SignedInGuard, IdentityDirectory],
})
export class IdentityReadModule {}

/** Identity's HTTP calls, mounted by the gateway. */
@Module({
  imports: [PassportModule, IdentityReadModule],
  controllers: [IdentityController],
  providers: [
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
  ],
})
export class IdentityHttpModule {}

/** Identity's workers: the identity queue (plan changes published by billing, copied onto the user). */
@Module({ imports: [IdentityReadModule], providers: [ApplyPlanChangeService, IdentityProcessor] })
export class IdentityWorkerModule {}
