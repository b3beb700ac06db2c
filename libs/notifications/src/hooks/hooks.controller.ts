import { BadRequestException, Body, Controller, Delete, ForbiddenException, Get, HttpCode, Inject, NotFoundException, Param, Post, Query, UseGuards } from '@nestjs/common';
import { ApiQuery, ApiTags } from '@nestjs/swagger';
import {
  ApiTokenMessages,
  WebhookMessages,
  createHookSchema,
  createdHookSchema,
  hookListSchema,
  hooksQuerySchema,
  hooksWithDeliveriesSchema,
  type CreateHookRequest,
  type CreatedHookDto,
  type HookDto,
  type HookWithDeliveriesDto,
} from '@plink/contracts';
import { APP_CONFIG, type AppConfig } from '@plink/config';
import { ApiDoc, ApiTokenGuard, CurrentUser, IdParamPipe, SignedInGuard, ZodPipe, type SignedInUser } from '@plink/http';
import { checkOutboundUrl } from '@plink/net';
import { WebhookEndpointLookup } from '../http/webhook-endpoint-lookup';
import { HooksRepository } from './hooks.repository';

/** `:id` of a hook: 404 for one that cannot exist, as for another user's. */
const hookIdPipe = new IdParamPipe(ApiTokenMessages.hookNotFound);

/**
 * REST hook subscriptions for automation tools (`/api/v1/hooks`: Zapier's subscribe/unsubscribe, n8n's
 * checkExists): Pro only. The target is judged by the page webhooks' address rule when it is made, and again
 * on every attempt.
 */
@ApiTags('API v1')
@Controller('api/v1/hooks')
@UseGuards(ApiTokenGuard)
export class HooksV1Controller {
  constructor(
    private readonly hooks: HooksRepository,
    private readonly pages: WebhookEndpointLookup,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  @ApiDoc({
    summary: 'Subscribe a URL to an event',
    description:
      "Every new lead of the page (`page_id`), or of every page of the account (no `page_id`), is POSTed to `target_url` as the page webhook's `lead.created`, signed (Standard Webhooks) with this hook's `secret`, on the webhook retry schedule. A target that answers 410 Gone loses its subscription at once. Several subscriptions to one event all receive it.",
    body: createHookSchema,
    ok: { status: 201, schema: createdHookSchema },
    errors: {
      400: [ApiTokenMessages.invalidTargetUrl, ApiTokenMessages.unknownEvent, WebhookMessages.blockedAddress],
      403: ApiTokenMessages.hooksProOnly,
      404: ApiTokenMessages.pageNotFound,
    },
  })
  @Post()
  @HttpCode(201)
  async create(@CurrentUser() user: SignedInUser, @Body(new ZodPipe(createHookSchema)) body: CreateHookRequest): Promise<CreatedHookDto> {
    this.assertPro(user);
    const verdict = await checkOutboundUrl(body.target_url, { allowPrivate: this.config.webhookAllowPrivateNetworks });
    if (!verdict.ok) throw new BadRequestException({ message: verdict.reason === 'scheme' ? ApiTokenMessages.invalidTargetUrl : WebhookMessages.blockedAddress });
    const pageId = body.page_id ?? null;
    if (pageId !== null && !(await this.pages.findOwned(pageId, user.id))) throw new NotFoundException({ message: ApiTokenMessages.pageNotFound });
    return this.hooks.create(user.id, { event: body.event, targetUrl: body.target_url, pageId });
  }

  @ApiDoc({ summary: "The token's user's hooks (without their secrets)", ok: hookListSchema, errors: { 403: ApiTokenMessages.hooksProOnly } })
  @ApiQuery({ name: 'target_url', required: false, schema: { type: 'string' }, description: 'Only the hooks of this exact target' })
  @Get()
  list(@CurrentUser() user: SignedInUser, @Query(new ZodPipe(hooksQuerySchema)) query: { target_url?: string }): Promise<HookDto[]> {
    this.assertPro(user);
    return this.hooks.list(user.id, query.target_url);
  }

  @ApiDoc({
    summary: 'Unsubscribe',
    description: 'Also on Free: a tool turned off after a downgrade can still remove its subscription.',
    ok: { status: 204 },
    errors: { 404: ApiTokenMessages.hookNotFound },
  })
  @Delete(':id')
  @HttpCode(204)
  async remove(@CurrentUser() user: SignedInUser, @Param('id', hookIdPipe) id: number): Promise<void> {
    await this.hooks.remove(user.id, id);
  }

  @ApiDoc({
    summary: "A new signing secret for the hook (the old one signs beside it for 24 h)",
    description:
      "Answers the hook with its new `secret`, shown this once. For 24 hours every delivery is signed with both the new and the old secret (two `v1,` signatures in `webhook-signature`, the new one first), so the tool can switch to the new secret without missing a delivery; then with the new one alone. Also on Free, as unsubscribing is.",
    ok: { status: 200, schema: createdHookSchema },
    errors: { 404: ApiTokenMessages.hookNotFound },
  })
  @Post(':id/rotate-secret')
  @HttpCode(200)
  rotateSecret(@CurrentUser() user: SignedInUser, @Param('id', hookIdPipe) id: number): Promise<CreatedHookDto> {
    return this.hooks.rotateSecret(user.id, id);
  }

  private assertPro(user: SignedInUser): void {
    if (!user.isPremium) throw new ForbiddenException({ message: ApiTokenMessages.hooksProOnly });
  }
}

/** Settings → Automations (with the session): the account's hooks and their latest deliveries. */
@ApiTags('API tokens')
@Controller('api/hooks')
@UseGuards(SignedInGuard)
export class HooksController {
  constructor(private readonly hooks: HooksRepository) {}

  @ApiDoc({ summary: "The signed-in user's hook subscriptions and their latest deliveries", ok: hooksWithDeliveriesSchema })
  @Get()
  list(@CurrentUser() user: SignedInUser): Promise<HookWithDeliveriesDto[]> {
    return this.hooks.withDeliveries(user.id);
  }

  @ApiDoc({ summary: 'Remove a hook subscription', ok: { status: 204 }, errors: { 404: ApiTokenMessages.hookNotFound } })
  @Delete(':id')
  @HttpCode(204)
  async remove(@CurrentUser() user: SignedInUser, @Param('id', hookIdPipe) id: number): Promise<void> {
    await this.hooks.remove(user.id, id);
  }
}
