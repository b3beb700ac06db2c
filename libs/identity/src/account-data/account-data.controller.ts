import { Body, Controller, Delete, HttpCode, Inject, Req, Res, UseGuards } from '@nestjs/common';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { ApiTags } from '@nestjs/swagger';
import {
  AccountDataMessages,
  IdentityMessages,
  deleteAccountSchema,
  messageResponseSchema,
  type DeleteAccountRequest,
  type MessageResponse,
} from '@plink/contracts';
import { APP_CONFIG, type AppConfig } from '@plink/config';
import { ApiDoc, SignedInGuard, ZodPipe } from '@plink/http';
import { clearSessionCookie } from '../sessions/session-cookie';
import { CurrentIdentityUser } from '../sessions/session.guard';
import type { User } from '../users/user.entity';
import { DeleteAccountService } from './delete-account.service';

/** Settings → Account's data calls: deleting the account. */
@ApiTags('Account')
@Controller('api/account')
export class AccountDataController {
  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly deleteAccount: DeleteAccountService,
  ) {}

  @ApiDoc({
    summary: 'Delete the signed-in account',
    description:
      "Immediate and final: checks the password (wrong ones count toward the login limits) and the username typed again, then removes the user and ends every session in one step (sign-in fails at once, the public pages answer 404 at once). The Stripe subscription is cancelled at once; pages, leads, statistics, uploads and webhook logs are removed by jobs right after. A last e-mail goes to the account's address. The username, e-mail address and page addresses are free again. Export the data first (`POST /api/account/export`) to keep a copy.",
    body: deleteAccountSchema,
    ok: messageResponseSchema,
    errors: {
      400: [IdentityMessages.currentPasswordWrong, AccountDataMessages.usernameMismatch, AccountDataMessages.passwordRequired, AccountDataMessages.usernameRequired],
      429: IdentityMessages.tooManyLoginAttempts,
    },
  })
  @Delete()
  @HttpCode(200)
  @UseGuards(SignedInGuard)
  async remove(
    @Req() request: FastifyRequest,
    @Res({ passthrough: true }) reply: FastifyReply,
    @CurrentIdentityUser() user: User,
    @Body(new ZodPipe(deleteAccountSchema)) body: DeleteAccountRequest,
  ): Promise<MessageResponse> {
    await this.deleteAccount.execute(user, body, request.ip);
    clearSessionCookie(reply, this.config);
    return { message: AccountDataMessages.accountDeleted };
  }
}
