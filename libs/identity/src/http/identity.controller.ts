import { Body, Controller, Get, HttpCode, Inject, Param, Post, Req, Res, UseGuards } from '@nestjs/common';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { ApiTags } from '@nestjs/swagger';
import {
  IdentityMessages,
  forgotPasswordSchema,
  loginSchema,
  messageResponseSchema,
  successResponseSchema,
  userDtoSchema,
  verifyResetTokenResponseSchema,
  registerSchema,
  resetPasswordSchema,
  updatePasswordSchema,
  verifyEmailSchema,
  type ForgotPasswordRequest,
  type LoginRequest,
  type MessageResponse,
  type RegisterRequest,
  type ResetPasswordRequest,
  type SuccessResponse,
  type UpdatePasswordRequest,
  type UserDto,
  type VerifyEmailRequest,
  type VerifyResetTokenResponse,
} from '@plink/contracts';
import { APP_CONFIG, type AppConfig } from '@plink/config';
import { ApiDoc, SignedInGuard, ZodPipe, type AuthedRequest } from '@plink/http';
import { clearSessionCookie, readSessionId, setSessionCookie } from '../sessions/session-cookie';
import { CurrentIdentityUser } from '../sessions/session.guard';
import { SESSION_COOKIE, SessionStore } from '../sessions/session.store';
import { AuthRateLimits } from '../use-cases/auth-rate-limits';
import { LogInService } from '../use-cases/log-in.service';
import { RegisterUserService } from '../use-cases/register-user.service';
import { RequestPasswordResetService } from '../use-cases/request-password-reset.service';
import { ResendVerificationService } from '../use-cases/resend-verification.service';
import { ResetPasswordService } from '../use-cases/reset-password.service';
import { UpdatePasswordService } from '../use-cases/update-password.service';
import { VerifyEmailService } from '../use-cases/verify-email.service';
import { toUserDto } from '../users/user.dto';
import type { User } from '../users/user.entity';
import { LoginGuard } from './login.guard';

/** The identity calls: current user, register, login, logout, e-mail verification and passwords. */
@ApiTags('Account')
@Controller('api')
export class IdentityController {
  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly sessions: SessionStore,
    private readonly limits: AuthRateLimits,
    private readonly logIn: LogInService,
    private readonly registerUser: RegisterUserService,
    private readonly verifyEmailUseCase: VerifyEmailService,
    private readonly resendVerificationUseCase: ResendVerificationService,
    private readonly requestReset: RequestPasswordResetService,
    private readonly resetPasswordUseCase: ResetPasswordService,
    private readonly updatePasswordUseCase: UpdatePasswordService,
  ) {}

  @ApiDoc({ summary: 'The signed-in user', ok: userDtoSchema })
  @Get('user')
  @UseGuards(SignedInGuard)
  currentUser(@CurrentIdentityUser() user: User): UserDto {
    return toUserDto(user);
  }

  @ApiDoc({
    summary: 'Create an account (and sign it in)',
    description:
      'Sets the session cookie, as login does, and sends the verification e-mail. The account cannot log in again, upgrade or upload images until its address is verified (POST /api/verify-email).',
    body: registerSchema,
    ok: { schema: userDtoSchema, headers: { 'Set-Cookie': `${SESSION_COOKIE}=…; HttpOnly; SameSite=Lax` } },
    errors: {
      409: [IdentityMessages.emailExists, IdentityMessages.usernameExists],
      429: [IdentityMessages.tooManyRequests, IdentityMessages.tooManyRegistrations],
    },
  })
  @Post('register')
  @HttpCode(201)
  async register(
    @Req() request: FastifyRequest,
    @Res({ passthrough: true }) reply: FastifyReply,
    @Body(new ZodPipe(registerSchema)) body: RegisterRequest,
  ): Promise<UserDto> {
    await this.limits.perAddress('register', request.ip);
    await this.limits.countRegistration(request.ip);
    const user = await this.registerUser.execute(body);
    await this.startSession(request, reply, user.id);
    return toUserDto(user);
  }

  @ApiDoc({
    summary: 'Log in',
    description: 'Sets the session cookie. Failed logins slow down the (e-mail, address) pair that sends them, never the account owner.',
    body: loginSchema,
    ok: { schema: userDtoSchema, headers: { 'Set-Cookie': `${SESSION_COOKIE}=…; HttpOnly; SameSite=Lax` } },
    errors: {
      401: IdentityMessages.invalidCredentials,
      403: IdentityMessages.verifyBeforeLogin,
      429: [IdentityMessages.tooManyRequests, IdentityMessages.tooManyLoginAttempts],
    },
  })
  @Post('login')
  @HttpCode(200)
  @UseGuards(LoginGuard)
  async login(@Req() request: AuthedRequest, @Res({ passthrough: true }) reply: FastifyReply): Promise<UserDto> {
    const user = request.user as User;
    await this.startSession(request, reply, user.id);
    return toUserDto(user);
  }

  @ApiDoc({ summary: 'Log out (ends the session, clears the cookie)', ok: messageResponseSchema })
  @Post('logout')
  @HttpCode(200)
  async logout(@Req() request: FastifyRequest, @Res({ passthrough: true }) reply: FastifyReply): Promise<MessageResponse> {
    await this.sessions.destroy(readSessionId(request));
    clearSessionCookie(reply, this.config);
    return { message: 'Logged out' };
  }

  @ApiDoc({
    summary: "Verify an account's e-mail address",
    description:
      'The token is the `token` query parameter of the link in the verification e-mail (`/verify-email?token=…`, a page of the app that sends this call). It works once.',
    body: verifyEmailSchema,
    ok: successResponseSchema,
    errors: { 400: [IdentityMessages.invalidVerificationToken, IdentityMessages.missingVerificationToken] },
  })
  @Post('verify-email')
  @HttpCode(200)
  async verifyEmail(@Body(new ZodPipe(verifyEmailSchema)) body: VerifyEmailRequest): Promise<SuccessResponse> {
    await this.verifyEmailUseCase.execute(body.token);
    return { success: true, message: 'Your email has been verified.' };
  }

  @ApiDoc({
    summary: 'Send the verification e-mail again',
    ok: messageResponseSchema,
    errors: { 400: IdentityMessages.alreadyVerified, 429: 'Please wait N seconds before requesting another verification email.' },
  })
  @Post('resend-verification')
  @HttpCode(200)
  @UseGuards(SignedInGuard)
  async resendVerification(@CurrentIdentityUser() user: User): Promise<MessageResponse> {
    await this.resendVerificationUseCase.execute(user);
    return { message: IdentityMessages.verificationSent };
  }

  @ApiDoc({
    summary: 'Send the verification e-mail again, from the login screen',
    description:
      'For an account not verified yet, whose owner is signed out: the login screen offers it after the 403 of a login. The e-mail and password prove the account as a login does, under the same limits (429 after repeated wrong passwords); the resend has the same 30 s cooldown as `POST /api/resend-verification`.',
    body: loginSchema,
    ok: messageResponseSchema,
    errors: {
      400: IdentityMessages.alreadyVerified,
      401: IdentityMessages.invalidCredentials,
      429: [IdentityMessages.tooManyRequests, IdentityMessages.tooManyLoginAttempts, 'Please wait N seconds before requesting another verification email.'],
    },
  })
  @Post('login/resend-verification')
  @HttpCode(200)
  async resendVerificationAtLogin(@Req() request: FastifyRequest, @Body(new ZodPipe(loginSchema)) body: LoginRequest): Promise<MessageResponse> {
    await this.limits.perAddress('login', request.ip);
    const user = await this.logIn.checkPassword(body, request.ip);
    await this.resendVerificationUseCase.execute(user);
    return { message: IdentityMessages.verificationSent };
  }

  @ApiDoc({
    summary: 'Send a password reset link',
    description: 'Answers alike whether or not the address has an account.',
    body: forgotPasswordSchema,
    ok: successResponseSchema,
    errors: { 429: IdentityMessages.tooManyRequests },
  })
  @Post('forgot-password')
  @HttpCode(200)
  async forgotPassword(
    @Req() request: FastifyRequest,
    @Body(new ZodPipe(forgotPasswordSchema)) body: ForgotPasswordRequest,
  ): Promise<SuccessResponse> {
    await this.limits.perAddress('forgot-password', request.ip);
    await this.requestReset.execute(body.email);
    return { success: true, message: IdentityMessages.forgotPasswordSent };
  }

  @ApiDoc({ summary: 'Whether a password reset token is still valid', ok: verifyResetTokenResponseSchema, errors: { 429: IdentityMessages.tooManyRequests } })
  @Get('verify-reset-token/:token')
  async verifyResetToken(@Req() request: FastifyRequest, @Param('token') token: string): Promise<VerifyResetTokenResponse> {
    await this.limits.perAddress('reset-password', request.ip);
    return { valid: await this.resetPasswordUseCase.isValid(token) };
  }

  @ApiDoc({
    summary: 'Set a new password with a reset token',
    description: "Ends every session of the account.",
    body: resetPasswordSchema,
    ok: successResponseSchema,
    errors: { 400: IdentityMessages.invalidResetToken, 429: IdentityMessages.tooManyRequests },
  })
  @Post('reset-password')
  @HttpCode(200)
  async resetPassword(
    @Req() request: FastifyRequest,
    @Body(new ZodPipe(resetPasswordSchema)) body: ResetPasswordRequest,
  ): Promise<SuccessResponse> {
    await this.limits.perAddress('reset-password', request.ip);
    await this.resetPasswordUseCase.execute(body.token, body.password);
    return { success: true, message: IdentityMessages.passwordResetDone };
  }

  @ApiDoc({
    summary: "Change the signed-in user's password",
    description: 'Ends every other session of the account.',
    body: updatePasswordSchema,
    ok: messageResponseSchema,
    errors: { 400: [IdentityMessages.currentPasswordWrong, IdentityMessages.newPasswordTooShort] },
  })
  @Post('update-password')
  @HttpCode(200)
  @UseGuards(SignedInGuard)
  async updatePassword(
    @Req() request: AuthedRequest,
    @CurrentIdentityUser() user: User,
    @Body(new ZodPipe(updatePasswordSchema)) body: UpdatePasswordRequest,
  ): Promise<MessageResponse> {
    await this.updatePasswordUseCase.execute(user, body, request.sessionId);
    return { message: IdentityMessages.passwordUpdated };
  }

  /** A new session id on every sign-in (the old one, if any, ends): no session fixation. */
  private async startSession(request: FastifyRequest, reply: FastifyReply, userId: number): Promise<void> {
    await this.sessions.destroy(readSessionId(request));
    setSessionCookie(reply, this.config, await this.sessions.create(userId));
  }
}
