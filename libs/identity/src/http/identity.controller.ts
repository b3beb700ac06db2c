import { Body, Controller, Get, HttpCode, Inject, Param, Post, Req, Res, UseGuards } from '@nestjs/common';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { ApiTags } from '@nestjs/swagger';
import {
  IdentityMessages,
  changeEmailSchema,
  changeUsernameSchema,
  confirmEmailChangeSchema,
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
  type ChangeEmailRequest,
  type ChangeUsernameRequest,
  type ConfirmEmailChangeRequest,
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
import { ChangeEmailService } from '../use-cases/change-email.service';
import { ChangeUsernameService } from '../use-cases/change-username.service';
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
    private readonly changeEmail: ChangeEmailService,
    private readonly changeUsername: ChangeUsernameService,
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

  @ApiDoc({
    summary: "Change the signed-in user's e-mail address (once the new address confirms it)",
    description:
      'Checks the current password (wrong ones count toward the login limits), then e-mails a confirmation link to the new address (`/confirm-email?token=…`, valid 24 hours, once) and a notice to the current one. The address changes only when the link is opened (`POST /api/account/email/confirm`); until then the answer\'s `pendingEmail` shows the change. One request per 30 s.',
    body: changeEmailSchema,
    ok: userDtoSchema,
    errors: {
      400: [IdentityMessages.currentPasswordWrong, IdentityMessages.sameEmail, IdentityMessages.invalidEmailAddress],
      409: IdentityMessages.emailExists,
      429: [IdentityMessages.tooManyLoginAttempts, 'Please wait N seconds before requesting another email change.'],
    },
  })
  @Post('account/email')
  @HttpCode(200)
  @UseGuards(SignedInGuard)
  async requestEmailChange(
    @Req() request: FastifyRequest,
    @CurrentIdentityUser() user: User,
    @Body(new ZodPipe(changeEmailSchema)) body: ChangeEmailRequest,
  ): Promise<UserDto> {
    return toUserDto(await this.changeEmail.request(user, body, request.ip));
  }

  @ApiDoc({
    summary: 'Confirm an e-mail change',
    description:
      'The token is the `token` query parameter of the link e-mailed to the new address (`/confirm-email?token=…`, a page of the app that sends this call). It works once; the previous address is told. Sessions stay signed in.',
    body: confirmEmailChangeSchema,
    ok: successResponseSchema,
    errors: { 400: IdentityMessages.invalidEmailChangeToken, 409: IdentityMessages.emailExists, 429: IdentityMessages.tooManyRequests },
  })
  @Post('account/email/confirm')
  @HttpCode(200)
  async confirmEmailChange(@Req() request: FastifyRequest, @Body(new ZodPipe(confirmEmailChangeSchema)) body: ConfirmEmailChangeRequest): Promise<SuccessResponse> {
    await this.limits.perAddress('confirm-email', request.ip);
    await this.changeEmail.confirm(body.token);
    return { success: true, message: IdentityMessages.emailChanged };
  }

  @ApiDoc({
    summary: 'Cancel a pending e-mail change',
    description: 'The link sent to the new address stops working.',
    ok: userDtoSchema,
    errors: { 400: IdentityMessages.noPendingEmailChange },
  })
  @Post('account/email/cancel')
  @HttpCode(200)
  @UseGuards(SignedInGuard)
  async cancelEmailChange(@CurrentIdentityUser() user: User): Promise<UserDto> {
    return toUserDto(await this.changeEmail.cancel(user));
  }

  @ApiDoc({
    summary: "Change the signed-in user's username",
    description:
      "The registration's rules (3 to 30 letters, numbers, underscores or hyphens; unique in any case). The pages then answer at `/p/{new username}/{slug}`; the old long address answers 404 (the old name is free for others).",
    body: changeUsernameSchema,
    ok: userDtoSchema,
    errors: { 400: [IdentityMessages.usernameLength, IdentityMessages.usernameCharacters], 409: IdentityMessages.usernameExists },
  })
  @Post('account/username')
  @HttpCode(200)
  @UseGuards(SignedInGuard)
  async updateUsername(@CurrentIdentityUser() user: User, @Body(new ZodPipe(changeUsernameSchema)) body: ChangeUsernameRequest): Promise<UserDto> {
    return toUserDto(await this.changeUsername.execute(user, body));
  }

  /** A new session id on every sign-in (the old one, if any, ends): no session fixation. */
  private async startSession(request: FastifyRequest, reply: FastifyReply, userId: number): Promise<void> {
    await this.sessions.destroy(readSessionId(request));
    setSessionCookie(reply, this.config, await this.sessions.create(userId));
  }
}
