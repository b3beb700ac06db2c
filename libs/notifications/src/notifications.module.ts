import { Module } from '@nestjs/common';
import { WebhooksController } from './http/webhooks.controller';
import { HookDeliveryService } from './hooks/hook-delivery.service';
import { HooksController, HooksV1Controller } from './hooks/hooks.controller';
import { HooksRepository } from './hooks/hooks.repository';
import { EmailProcessor } from './processors/email.processor';
import { DeliverWebhookService } from './webhooks/deliver-webhook.service';
import { WebhookEndpointsRepository } from './webhooks/webhook-endpoints.repository';
import { WebhookLogRepository } from './webhooks/webhook-log.repository';
import { WebhookSecretOpener } from './webhooks/webhook-secret-opener';
import { WebhooksProcessor } from './webhooks/webhooks.processor';

/**
 * The notifications service's workers: the e-mail queue and the webhooks queue (with its daily log clean-up).
 * They read only the notifications schema: what they send comes in the jobs, and the webhook endpoints from
 * the service's own copy, which the pages service keeps up to date ('webhook-endpoint.changed').
 */
@Module({
  providers: [
    EmailProcessor,
    WebhookSecretOpener,
    WebhookEndpointsRepository,
    WebhookLogRepository,
    DeliverWebhookService,
    HooksRepository,
    HookDeliveryService,
    WebhooksProcessor,
  ],
})
export class NotificationsWorkerModule {}

/**
 * The webhook calls of a page's owner (mounted by the gateway): the endpoint, its log, a test event, a
 * redelivery. Needs a `WebhookEndpointLookup` (the endpoint as the pages service has it now), which the
 * composing process provides.
 */
@Module({
  controllers: [WebhooksController, HooksV1Controller, HooksController],
  providers: [WebhookSecretOpener, WebhookEndpointsRepository, WebhookLogRepository, DeliverWebhookService, HooksRepository],
})
export class WebhooksHttpModule {}
