import { BadRequestException, Controller, ForbiddenException, Get, HttpCode, NotFoundException, Param, Post, UseGuards } from '@nestjs/common';
import { EntityManager } from '@mikro-orm/postgresql';
import { ApiTags } from '@nestjs/swagger';
import {
  PageMessages,
  WebhookMessages,
  webhookMessageIdSchema,
  webhookSchema,
  webhookTestResultSchema,
  type WebhookDto,
  type WebhookTestResult,
} from '@plink/contracts';
import { ApiDoc, CurrentUser, IdParamPipe, SignedInGuard, tooManyRequests, type SignedInUser } from '@plink/http';
import { Outbox } from '@plink/queue';
import { RateLimiter } from '@plink/redis';
import { DeliverWebhookService } from '../webhooks/deliver-webhook.service';
import { WebhookLogRepository } from '../webhooks/webhook-log.repository';
import { WebhookEndpointLookup, type OwnedWebhookEndpoint } from './webhook-endpoint-lookup';

/** Test events and redeliveries one page may ask for in a minute (each is an outbound request). */
export const SENDS_PER_MINUTE = 30;

/** `:id` of a page: 404 for one that cannot exist, as for another's. */
const pageIdPipe = new IdParamPipe(PageMessages.pageNotFound);

/**
 * A Pro owner's view of a page's webhook: the endpoint and its delivery log, a test event, a redelivery.
 * (Rotating the secret and turning the webhook back on change the page: the pages service answers those.)
 */
@ApiTags('Webhooks')
@Controller('api/pages/:id/webhook')
@UseGuards(SignedInGuard)
export class WebhooksController {
  constructor(
    private readonly endpoints: WebhookEndpointLookup,
    private readonly log: WebhookLogRepository,
    private readonly delivery: DeliverWebhookService,
    private readonly outbox: Outbox,
    private readonly em: EntityManager,
    private readonly limiter: RateLimiter,
  ) {}

  @ApiDoc({ summary: "A page's webhook: endpoint, secret and the last 100 messages (Pro)", ok: webhookSchema, errors: { 403: WebhookMessages.proOnly, 404: PageMessages.pageNotFound } })
  @Get()
  async show(@CurrentUser() user: SignedInUser, @Param('id', pageIdPipe) id: number): Promise<WebhookDto> {
    const target = await this.ownedTarget(user, id);
    return { ...target.view, deliveries: await this.log.deliveries(target.pageId) };
  }

  /** Sends a test `lead.created` event now and answers its attempt. */
  @ApiDoc({
    summary: 'Send a test `lead.created` event now (Pro)',
    ok: webhookTestResultSchema,
    errors: { 400: WebhookMessages.noUrl, 403: WebhookMessages.proOnly, 404: PageMessages.pageNotFound, 429: WebhookMessages.tooManySends },
  })
  @Post('test')
  @HttpCode(200)
  async test(@CurrentUser() user: SignedInUser, @Param('id', pageIdPipe) id: number): Promise<WebhookTestResult> {
    const target = await this.ownedTarget(user, id);
    if (!target.url || target.secrets.length === 0) throw new BadRequestException({ message: WebhookMessages.noUrl });
    await this.limitSends(target.pageId);
    const message = await this.delivery.sendTest(target);
    return { delivery: (await this.log.delivery(target.pageId, message.id))! };
  }

  /** Sends a logged message again (same `webhook-id` and body), with the retry schedule. */
  @ApiDoc({
    summary: 'Send a logged message again, same `webhook-id` and body (Pro)',
    ok: webhookTestResultSchema,
    errors: { 400: WebhookMessages.noUrl, 403: WebhookMessages.proOnly, 404: [PageMessages.pageNotFound, WebhookMessages.messageNotFound], 429: WebhookMessages.tooManySends },
  })
  @Post('deliveries/:messageId/redeliver')
  @HttpCode(202)
  async redeliver(@CurrentUser() user: SignedInUser, @Param('id', pageIdPipe) id: number, @Param('messageId') messageId: string): Promise<WebhookTestResult> {
    const target = await this.ownedTarget(user, id);
    const message = webhookMessageIdSchema.safeParse(messageId).success ? await this.log.findById(messageId) : null;
    if (!message || message.pageId !== target.pageId) throw new NotFoundException({ message: WebhookMessages.messageNotFound });
    if (!target.url || target.secrets.length === 0) throw new BadRequestException({ message: WebhookMessages.noUrl });
    await this.limitSends(target.pageId);
    await this.em.transactional(async (tx) => {
      await this.log.setStatus(message.id, 'pending', new Date(), tx);
      this.outbox.record(tx, 'webhook.redeliver', { v: 1, messageId: message.id });
    });
    return { delivery: (await this.log.delivery(target.pageId, message.id))! };
  }

  private async limitSends(pageId: number): Promise<void> {
    const decision = await this.limiter.hit('webhook-sends', String(pageId), SENDS_PER_MINUTE, 60);
    if (!decision.allowed) throw tooManyRequests(WebhookMessages.tooManySends, decision.retryAfterSeconds);
  }

  /**
   * The page's webhook endpoint, from the pages service now: 404 when it is not the caller's page, 403 when the
   * caller is not on Pro (their plan as their session has it).
   */
  private async ownedTarget(user: SignedInUser, id: number): Promise<OwnedWebhookEndpoint> {
    const target = await this.endpoints.findWebhookTarget(id);
    if (!target || target.ownerId !== user.id) throw new NotFoundException({ message: PageMessages.pageNotFound });
    if (!user.isPremium) throw new ForbiddenException({ message: WebhookMessages.proOnly });
    return target;
  }
}
