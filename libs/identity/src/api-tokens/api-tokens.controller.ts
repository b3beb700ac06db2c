import { Body, Controller, Delete, Get, HttpCode, Param, Post, UseGuards } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import {
  ApiTokenMessages,
  apiTokenListSchema,
  createApiTokenSchema,
  createdApiTokenSchema,
  v1MeSchema,
  type ApiTokenDto,
  type CreateApiTokenRequest,
  type CreatedApiTokenDto,
  type V1MeDto,
} from '@plink/contracts';
import { ApiDoc, ApiTokenGuard, CurrentUser, IdParamPipe, SignedInGuard, ZodPipe, type SignedInUser } from '@plink/http';
import { ApiTokens } from './api-tokens';

/** `:id` of a token: 404 for one that cannot exist, as for another user's. */
const tokenIdPipe = new IdParamPipe(ApiTokenMessages.tokenNotFound);

/** Settings → API tokens: made, listed and revoked with the session only (a token cannot make tokens). */
@ApiTags('API tokens')
@Controller('api/tokens')
@UseGuards(SignedInGuard)
export class ApiTokensController {
  constructor(private readonly tokens: ApiTokens) {}

  @ApiDoc({
    summary: 'Make an API token',
    description: 'The token (`plk_…`) is in this answer only: Plink keeps its SHA-256. Use it as `Authorization: Bearer plk_…` on `/api/v1/*`.',
    body: createApiTokenSchema,
    ok: createdApiTokenSchema,
    errors: { 400: [ApiTokenMessages.nameRequired, ApiTokenMessages.nameTooLong] },
  })
  @Post()
  @HttpCode(201)
  create(@CurrentUser() user: SignedInUser, @Body(new ZodPipe(createApiTokenSchema)) body: CreateApiTokenRequest): Promise<CreatedApiTokenDto> {
    return this.tokens.create(user.id, body.name);
  }

  @ApiDoc({ summary: "The signed-in user's API tokens (never the tokens themselves)", ok: apiTokenListSchema })
  @Get()
  list(@CurrentUser() user: SignedInUser): Promise<ApiTokenDto[]> {
    return this.tokens.list(user.id);
  }

  @ApiDoc({
    summary: 'Revoke an API token',
    description: 'Refused on every Plink process within a second.',
    ok: { status: 204 },
    errors: { 404: ApiTokenMessages.tokenNotFound },
  })
  @Delete(':id')
  @HttpCode(204)
  async revoke(@CurrentUser() user: SignedInUser, @Param('id', tokenIdPipe) id: number): Promise<void> {
    await this.tokens.revoke(user.id, id);
  }
}

/** `GET /api/v1/me`: whose token this is (automation tools test a connection with it and label it). */
@ApiTags('API v1')
@Controller('api/v1')
@UseGuards(ApiTokenGuard)
export class MeV1Controller {
  @ApiDoc({ summary: "The token's user", ok: v1MeSchema })
  @Get('me')
  me(@CurrentUser() user: SignedInUser): V1MeDto {
    return { id: user.id, email: user.email, username: user.username, plan: user.isPremium ? 'pro' : 'free' };
  }
}
