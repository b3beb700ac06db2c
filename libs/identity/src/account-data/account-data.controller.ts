import { Body, Controller, Delete, Get, HttpCode, Inject, NotFoundException, Param, Post, Query, Req, Res, UseGuards } from '@nestjs/common';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { ApiTags } from '@nestjs/swagger';
import {
  AccountDataMessages,
  IdentityMessages,
  accountExportSchema,
  accountExportStartedSchema,
  deleteAccountSchema,
  latestAccountExportSchema,
  messageResponseSchema,
  type AccountExportStarted,
  type DeleteAccountRequest,
  type LatestAccountExport,
  type MessageResponse,
} from '@plink/contracts';
import { APP_CONFIG, type AppConfig } from '@plink/config';
import { ApiDoc, SessionLookup, SignedInGuard, ZodPipe } from '@plink/http';
import { Storage } from '@plink/storage';
import { clearSessionCookie } from '../sessions/session-cookie';
import { CurrentIdentityUser } from '../sessions/session.guard';
import type { User } from '../users/user.entity';
import { AccountExportsService } from './account-exports.service';
import { DeleteAccountService } from './delete-account.service';

/** Settings → Account's data calls: exporting the account's data, deleting the account. */
@ApiTags('Account')
@Controller('api/account')
export class AccountDataController {
  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly deleteAccount: DeleteAccountService,
    private readonly exports: AccountExportsService,
    private readonly sessions: SessionLookup,
    private readonly storage: Storage,
  ) {}

  @ApiDoc({
    summary: "Export the signed-in account's data",
    description:
      'Starts building one ZIP: `account.json`, and one folder per page with `page.json`, its uploaded images and `leads.csv`. Built by jobs; when it is ready the account\'s address gets a download link valid 24 hours, and `GET /api/account/export/{id}` answers the file. One export at a time.',
    ok: { status: 202, schema: accountExportStartedSchema },
    errors: { 409: AccountDataMessages.exportBusy },
  })
  @Post('export')
  @HttpCode(202)
  @UseGuards(SignedInGuard)
  startExport(@CurrentIdentityUser() user: User): Promise<AccountExportStarted> {
    return this.exports.start(user);
  }

  @ApiDoc({ summary: "The signed-in user's newest export (kept 24 hours), if any", ok: latestAccountExportSchema })
  @Get('export')
  @UseGuards(SignedInGuard)
  async latestExport(@CurrentIdentityUser() user: User): Promise<LatestAccountExport> {
    return { export: await this.exports.latest(user.id) };
  }

  @ApiDoc({
    summary: 'An export: its status while it is built, then the ZIP',
    description:
      "For its signed-in owner, or with the link e-mailed when it was ready (`expires` and `signature`, valid 24 hours, no session needed). 202 with the status while it is built, 200 with the status when it failed, the ZIP (`application/zip`, as a download) once ready. Someone else's export, an unknown or expired one: 404.",
    ok: { status: 202, schema: accountExportSchema },
    errors: { 404: AccountDataMessages.exportNotFound },
  })
  @Get('export/:id')
  async exportFile(
    @Req() request: FastifyRequest,
    @Res() reply: FastifyReply,
    @Param('id') id: string,
    @Query('expires') expires?: string,
    @Query('signature') signature?: string,
  ): Promise<FastifyReply> {
    let storageKey: string | null;
    if (expires && signature) {
      storageKey = (await this.exports.findBySignedLink(id, expires, signature))?.storageKey ?? null;
    } else {
      const signedIn = await this.sessions.signedIn(request);
      const found = signedIn ? await this.exports.find(signedIn.user.id, id) : null;
      if (found && found.status !== 'ready') {
        const { storageKey: _key, ...status } = found;
        return reply.status(found.status === 'pending' ? 202 : 200).header('cache-control', 'no-store').send(status);
      }
      storageKey = found?.storageKey ?? null;
    }
    const object = storageKey ? await this.storage.get(storageKey) : null;
    if (!object) throw new NotFoundException({ message: AccountDataMessages.exportNotFound });
    return reply
      .status(200)
      .header('content-type', 'application/zip')
      .header('content-length', String(object.size))
      .header('content-disposition', `attachment; filename="plink-export-${new Date().toISOString().slice(0, 10)}.zip"`)
      .header('cache-control', 'private, no-store')
      .send(object.body);
  }

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
