import { Body, Controller, Get, HttpCode, Inject, Param, Post, Req, Res, UseGuards } from '@nestjs/common';
import type { FastifyReply, FastifyRequest } from 'fastify';
import {
  IdentityMessages,
  forgotPasswordSchema,
  registerSchema,
  resetPasswordSchema,
  updatePasswordSchema,
  verifyEmailSchema,
  type ForgotPasswordRequest,
  type MessageResponse,
  type RegisterRequest,
  type ResetPasswordRequest,
  type SuccessResponse,
  type UpdatePasswordRequest,
  type UserDto,
  type VerifyEmailRequest,
  type VerifyResetTokenResponse,
} from '@plink/contracts';
import { APP_CONFIG, ZodPipe, type AppConfig } from '@plink/platform';
import { clearSessionCookie, readSessionId, setSessionCookie } from '../sessions/session-cookie';
import { CurrentUser, SignedInGuard, type AuthedRequest } from '../sessions/session.guard';
import { SessionStore } from '../sessions/session.store';
import { AuthRateLimits } from '../use-cases/auth-rate-limits';
import { RegisterUserService } from '../use-cases/register-user.service';
import { RequestPasswordResetService } from '../use-cases/request-password-reset.service';
import { ResendVerificationService } from '../use-cases/resend-verification.service';
import { ResetPasswordService } from '../use-cases/reset-password.service';
import { UpdatePasswordService } from '../use-cases/update-password.service';
import { VerifyEmailService } from '../use-cases/verify-email.service';
import { toUserDto } from '../users/user.dto';
import type { User } from '../users/user.entity';
import { LoginGuard } from './login.guard';

/** The identity calls of SPEC §7. */
@Controller('api')
export class IdentityController {
  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly sessions: SessionStore,
    private readonly limits: AuthRateLimits,
    private readonly registerUser: RegisterUserService,
    private readonly verifyEmailUseCase: VerifyEmailService,
    private readonly resendVerificationUseCase: ResendVerificationService,
    private readonly requestReset: RequestPasswordResetService,
    private readonly resetPasswordUseCase: ResetPasswordService,
    private readonly updatePasswordUseCase: UpdatePasswordService,
  ) {}

  @Get('user')
  @UseGuards(SignedInGuard)
  currentUser(@CurrentUser() user: User): UserDto {
    return toUserDto(user);
  }

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

  @Post('login')
  @HttpCode(200)
  @UseGuards(LoginGuard)
  async login(@Req() request: AuthedRequest, @Res({ passthrough: true }) reply: FastifyReply): Promise<UserDto> {
    const user = request.user!;
    await this.startSession(request, reply, user.id);
    return toUserDto(user);
  }

  @Post('logout')
  @HttpCode(200)
  async logout(@Req() request: FastifyRequest, @Res({ passthrough: true }) reply: FastifyReply): Promise<MessageResponse> {
    await this.sessions.destroy(readSessionId(request));
    clearSessionCookie(reply, this.config);
    return { message: 'Logged out' };
  }

  @Post('verify-email')
  @HttpCode(200)
  async verifyEmail(@Body(new ZodPipe(verifyEmailSchema)) body: VerifyEmailRequest): Promise<SuccessResponse> {
    await this.verifyEmailUseCase.execute(body.token);
    return { success: true, message: 'Your email has been verified.' };
  }

  @Post('resend-verification')
  @HttpCode(200)
  @UseGuards(SignedInGuard)
  async resendVerification(@CurrentUser() user: User): Promise<MessageResponse> {
    await this.resendVerificationUseCase.execute(user);
    return { message: IdentityMessages.verificationSent };
  }

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

  @Get('verify-reset-token/:token')
  async verifyResetToken(@Req() request: FastifyRequest, @Param('token') token: string): Promise<VerifyResetTokenResponse> {
    await this.limits.perAddress('reset-password', request.ip);
    return { valid: await this.resetPasswordUseCase.isValid(token) };
  }

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

  @Post('update-password')
  @HttpCode(200)
  @UseGuards(SignedInGuard)
  async updatePassword(
    @Req() request: AuthedRequest,
    @CurrentUser() user: User,
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
